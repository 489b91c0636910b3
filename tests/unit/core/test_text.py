"""A message's language from the writer's own words: the names it mentions, what it quotes, ids and addresses
leave the judgement to the words around them."""

import pytest

from pipelines.core.text import own_words_language

NAMES = ["张伟", "欧阳娜娜", "Kevin Zhou", "Priya Nair", "数据工程师", "Will Smith"]


@pytest.mark.parametrize(("message", "language"), [
    ("Send an email to 张伟 about the Java role", "en"),
    ("Schedule 欧阳娜娜 for J002", "en"),  # more Chinese characters than English letters, all of them a name
    ("Please find candidates for 数据工程师", "en"),
    ('Who fits "高级数据平台工程师" best?', "en"),  # a quoted title
    ("Kevin Zhou 和 Priya Nair 谁更适合 J001？", "zh"),  # more English words than Chinese ones, all of them names
    ("给 Kevin Zhou 发一封邮件", "zh"),
    ("J001 有哪些 Java 候选人", "zh"),
    ("请帮我安排 interview", "zh"),
    ("[EMAIL_1] 是谁", "zh"),  # a masked value is no English word
    ("Who is [PHONE_CN_2]?", "en"),
    ("Will it work for J003?", "en"),  # "Will" the word, not Will Smith
    ("张伟", "zh"),  # nothing but a name: the name's script
    ("Kevin Zhou", "en"),
])
def test_the_language_is_the_writer_s_own(message, language):
    assert own_words_language(message, NAMES) == language
