"""The weighted signals the injection detector adds up: each rule names one kind of evidence (an override
verb aimed at the assistant's instructions, a jailbreak persona, a fake role marker, ...) and its weight.

Rules match the normalised, compacted text (case folded, look-alikes folded, spaced letters joined), one sentence
or two adjacent sentences at a time (joined by a newline), so patterns are lower case and `.` never crosses a
sentence. No single common word carries weight on its own: a rule fires on a structure (verb + qualified target,
addressee + demand), and weak rules only count next to another signal. A window whose weights add up to
`BLOCK_AT` is an attack; in one group only the heaviest rule counts. Override, extraction and exfiltration
matches that `DISTANCE` finds negated, prevented or described ("never bypass safety checks", "stop the model from
revealing its prompt") do not count, and a rule's weight can differ between a user's message and a document.

Write rules for the shape of an attack, never for one sample's wording, and check a change against the dev set
(`python -m tests.support.guardrail_eval`) and the held-out set (`... tests/devsets/guardrails/holdout.jsonl`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

BLOCK_AT = 3.0  # a window whose signals add up to this is an attack


@dataclass(frozen=True, eq=False)
class Rule:
    name: str
    kind: str          # override | hijack | role | extraction | jailbreak | exfiltration | role_marker | indirect | support
    user: float        # weight in a user's message
    document: float    # weight in a document (a resume, a JD, a web page) that the workflow reads
    pattern: re.Pattern
    group: str         # rules of one group restate the same evidence: a window counts only the heaviest (default: own name)
    exempt: re.Pattern | None = None  # a match whose own text also matches this does not count
    distanced: bool = False  # a match that `DISTANCE` says is negated, prevented or described does not count


# Text right before a match that turns a demand into a description: a negation ("never bypass safety checks"), a
# prevention ("stop the model from revealing its system prompt", "防止模型泄露系统提示词") or a third party made to do it
# ("we got the chatbot to ignore its instructions"). Resumes of AI-security people are full of these.
DISTANCE = re.compile(
    r"(?:\b(?:never|not|cannot|no)\s+(?:\w+\s+)?|n['’]t\s+(?:\w+\s+)?"
    r"|\b(?:prevent\w*|stop\w*|block\w*|detect\w*|avoid\w*|protect\w*|prohibit\w*|forbid\w*|mitigat\w*|defend\w*|"
    r"resist\w*|refus\w*|flag\w*|catch\w*|against)\b\s+[^.,;:!?\n]{0,40}"
    r"|\b(?:make|made|making|get|got|getting|trick\w*|forc\w*|caus\w*|convinc\w*|let|lets|letting|induc\w*|coax\w*|manipulat\w*)"
    r"\s+(?:the |a |an |our |their |its |his |her )?(?:[\w-]+ )?(?:chatbots?|models?|bots?|assistants?|ai|llms?|agents?|"
    r"systems?|it|them|gpt|chatgpt)\s+(?:into\s+|to\s+)?(?:[^.;:!?\n]{0,60}\b(?:and|or|then)\s+)?"
    r"|(?:防止|避免|防范|禁止|杜绝|检测|识别|阻止|拦截|不会|不能|不得|不可|不许|绝不|从不|诱导|诱使|(?:让|使)(?:模型|其|它|"
    # sixteen characters: about as many words as the forty letters in English
    r"助手|ai|大模型|机器人))[^。！？\n，,；;]{0,16})$")


def _rule(name: str, kind: str, user: float, pattern: str, document: float | None = None, exempt: str | None = None,
          group: str | None = None, distanced: bool | None = None) -> Rule:
    return Rule(name, kind, user, user if document is None else document, re.compile(pattern, re.M), group or name,
                re.compile(exempt) if exempt else None,
                kind in ("override", "extraction", "exfiltration") if distanced is None else distanced)


# ---- shared vocabulary --------------------------------------------------------------------------------------------
A = "['’]"  # an apostrophe, straight or curly
W = r"(?:[\s,'\"“”‘’()\-]+[\w'’-]+){0,%d}?[\s,'\"“”‘’()\-]+"  # up to N words in between
WS = r"(?:[\s'\"“”‘’]+[\w'’-]+){0,%d}?[\s'\"“”‘’]+"  # up to N words in between, within one clause (no commas or brackets)
# Harmless words between a verb and its object: "ignore all of the ...".
FILL = (r"(?:\s+(?:all|of|the|any|and|about|every|each|single|those|these|that|what|everything|completely|entirely|totally|"
        r"simply|just|please|now|kindly|in|on|with))*")
AI = (r"(?:ai|a\.i\.|llm|llms|large language models?|language models?|chatgpt|gpt(?:-?\d\w*)?|claude|gemini|bard|copilot|"
      r"chatbot|bot|assistant|ai assistant|ai model|model|artificial intelligence)")
# Who reads a document by machine. A person ("Dear Hiring Manager", "Note to HR", "the reviewer") is not one: a hiring
# word counts only with a tool noun after it ("hiring bot", "HR system") or a machine word before it ("resume parser").
READER = (r"(?:ai|a\.i\.|llms?|(?:large )?language models?|chatgpt|gpt(?:-?\d\w*)?|claude|gemini|copilot|assistants?|"
          r"ai (?:assistant|reviewer|screener|recruiter|agent|model|system|tool|bot|reader|evaluator)s?|models?|bots?|chatbots?|"
          r"(?:ai|automated|resume|cv|applicant|candidate) (?:screening|screener|reviewer|parser|recruit(?:ing|ment)?|hr|hiring|"
          r"ranking|scoring)(?: (?:system|tool|software|bot|ai|model|assistant|agent|engine))?s?|"
          r"(?:screening|recruit(?:ing|ment)|hr|hiring|ranking|scoring|resume|cv) "
          r"(?:system|tool|software|bot|ai|model|assistant|agent|engine|parser)s?|screeners?|"
          r"ats|applicant tracking systems?|automated (?:system|tool|reader|screener|reviewer)s?|machine readers?)")

# What the machine reader does, before its name: "the reviewing model", "the evaluator bot", "automated screeners".
READER_ROLE = r"(?:[a-z-]+(?:ing|ed|or|er) )?"

# Verbs that set instructions aside ("ignore", "stop following", "override").
OVR = (r"(?:ignor(?:e|es|ed|ing)|disregard(?:s|ed|ing)?|forget(?:s|ting)?|forgot(?:ten)?|overrid(?:e|es|ing|den)|overrode|"
       r"bypass(?:es|ed|ing)?|circumvent(?:s|ed|ing)?|skip(?:s|ped|ping)?|discard(?:s|ed|ing)?|abandon(?:s|ed|ing)?|"
       r"dismiss(?:es|ed|ing)?|drop(?:s|ped|ping)?|ditch|scrap|throw (?:out|away)|set aside|put aside|never ?mind|"
       rf"pay no (?:attention|heed|mind) to|(?:do not|don{A}?t|never|stop|no longer|cease to|quit|refuse to) "
       r"(?:follow(?:ing)?|obey(?:ing)?|listen(?:ing)? to|adher(?:e|ing) to|comply(?:ing)? with|respect(?:ing)?|abid(?:e|ing) by|"
       r"apply(?:ing)?|us(?:e|ing)|enforc(?:e|ing))|nullify|void|cancel(?:l?ed)?|revoke|erase|delete|wipe|clear|reset|unlearn|"
       r"deactivate|disable|turn off|switch off|lift|remove|suspend|violate|break|defy|circumvent)")
# The unambiguous ones: "drop the old filters" or "reset the rules" is everyday search work, "ignore the rules" is not.
OVR_STRONG = (r"(?:ignor(?:e|es|ed|ing)|disregard(?:s|ed|ing)?|forget(?:s|ting)?|forgot(?:ten)?|overrid(?:e|es|ing|den)|overrode|"
              r"bypass(?:es|ed|ing)?|circumvent(?:s|ed|ing)?|never ?mind|pay no (?:attention|heed|mind) to|violate|defy|break|"
              rf"(?:do not|don{A}?t|never|stop|no longer|cease to|quit|refuse to) (?:follow(?:ing)?|obey(?:ing)?|"
              rf"listen(?:ing)? to|"
              r"adher(?:e|ing) to|comply(?:ing)? with|respect(?:ing)?|abid(?:e|ing) by))")
# What only an AI has: its instructions, prompt, programming, guardrails.
AI_TARGET = (r"(?:instructions?|instructs|directions|directives?|prompts?|system (?:prompts?|messages?)|programming|guardrails?|"
             r"safeguards?|training|conditioning|guidelines?|ethics|morals|moral (?:code|compass)|principles|content polic(?:y|"
             r"ies)|"
             r"safety (?:rules|guidelines|protocols?|filters?|measures|checks|settings|polic(?:y|ies)|restrictions|features)|"
             r"persona|(?:pre-?)?configuration|system settings)")
# Words that are also everyday recruiting words ("rules for referrals", "the search filters").
GEN_TARGET = (r"(?:rules?|restrictions?|limitations?|limits|constraints?|polic(?:y|ies)|filters?|filtering|commands?|orders|"
              r"protocols?|tasks?|assignments?|settings|boundaries|criteria|requirements|rubric|standards)")
# Of those, the ones a user's own task is made of: "forget the previous criteria and search Lyon" corrects a search.
TASK_TARGET = r"(?:criteria|requirements|filters?|filtering|tasks?|assignments?|settings|rubric|standards)"
# Whose instructions: the assistant's own (strong) ...
Q_AI = (rf"(?:your|yours|its|the assistant{A}?s|the ai{A}?s|the model{A}?s|system|developer{A}?s?|openai{A}?s?|anthropic{A}?s?|"
        r"built-?in|default|hidden|programmed|pre-?programmed|original|initial|safety|ethical|moral|content|confidentiality|core|"
        r"underlying|usual|normal|standard)")
# ... or the ones given before this message.
Q_TIME = (r"(?:previous(?:ly)?|prior|above|aforementioned|foregoing|preceding|earlier|former|old|existing|current|past|"
          r"all (?:the )?(?:previous|prior|above|earlier|preceding))")
Q_BEFORE = r"(?:previous(?:ly)?|prior|above|aforementioned|foregoing|preceding|earlier)"  # before this message, not "old filters"
Q_ALL = r"(?:all|any|every|these|those|such)"
# Given to the assistant: "the rules you were given", "the filters you were configured with".
GIVEN_TO_YOU = (rf"(?:that |which )?(?:you(?:{A}ve| have| were| are| had)?|you{A}re) (?:been )?(?:given|configured|told|"
                rf"programmed|"
                r"trained|instructed|set up|following|follow|operating under|bound by|taught|provided)")
# A scoped rule is a recruiting rule, not the assistant's: "the previous rules about referrals".
SCOPED = (r"(?!\s+(?:about|for|on|regarding|concerning|around|of|in)\s+(?!you\b|yourself\b|this (?:chat|conversation|session)\b|"
          r"the (?:ai|assistant|model)\b))")
SELF = r"\b(?:my|mine|i|i'?ve|we|our|ours|me)\b"  # the user's own earlier words: "ignore my previous message" is a correction
NOT_MINE = r"(?!\s+(?:that\s+|which\s+)?(?:i|we)\b)"  # "ignore the previous instructions I gave about the Berlin role"

# Chinese: verbs that set instructions aside, targets and qualifiers.
# In Chinese rules "ai" stands alone: not the "ai" of a Latin word ("email", "detail") next to Chinese text.
AI_ZH = r"(?<![a-z])ai(?![a-z])"
OVR_ZH = (r"(?:忽略|忽视|无视|忘记|忘掉|忘了|不要理会|不理会|别理会|不用理会|不要管|别管|不用管|抛开|抛弃|丢弃|放弃|跳过|绕过|"
          r"覆盖|推翻|撤销|清除|清空|重置|摒弃|废除|作废|违背|违反|突破|打破|解除|取消|关闭|关掉|停用|禁用|撇开|扔掉|丢掉|"
          r"(?:不要|不用|不必|别)理|(?:先)?放(?:在|到)?一边|"
          r"(?:不要|不再|别|不用|不必|无需|停止|拒绝)再?(?:遵守|遵循|听从|服从|执行|理会|受|按照|依照))")
AI_TARGET_ZH = (r"(?:指令|指示|提示词|提示语|系统提示|设定|人设|编程|训练|安全(?:规则|限制|策略|检查|审核|机制|设置|过滤|措施|"
                r"准则)|审查|内容(?:政策|审核|过滤|审查)|护栏|过滤器|prompt|instruction|原则|底线|道德|伦理)")
GEN_TARGET_ZH = r"(?:规则|限制|约束|准则|规定|规范|政策|策略|要求|命令|任务|设置|配置|标准|条款|框架)"
Q_ZH = (r"(?:你的|你被|你所|你自己的|你原来的|你原有的|你之前的|你先前的|之前|以前|先前|此前|上面|上方|以上|上述|前面|前述|原来|"
        r"原先|原有|原始|最初|初始|所有|一切|全部|任何|系统|开发者|既定|预设|默认|刚才|之上|内置|固有|安全)")
# Who reads a document by machine, in Chinese: an AI or model (with the role it plays: "AI评估员"), a bot, or a system
# that screens, reviews or scores ("自动化评审系统"); a person ("HR", "面试官" alone) is not one.
MACHINE_ZH = (rf"(?:(?:{AI_ZH}|人工智能|大模型|语言模型|模型|chatgpt|gpt|llm)"
              r"(?:评估员|评审员|筛选员|审核员|面试官|招聘官|助手|助理|模型)?|助手|(?:招聘|筛选|评审)?机器人|"
              r"(?:自动化|智能|招聘|简历筛选|ai筛选|筛选|评审|评估|审核|hr)(?:评审|评估|筛选|审核)?系统)")
SELF_ZH = r"我(?!们公司)"  # "忽略我之前说的要求" corrects the user's own words
# A rule named by its recruiting subject is a screening rule ("the previous screening rules", "之前的筛选规则").
HIRING = (r"\b(?:screening|hiring|interview\w*|referral\w*|salary|search|filter|ranking|scoring|sourcing|recruiting|candidates?|"
          r"applications?|applicants?|visa|relocation|onboarding|scheduling|shortlist\w*|reimbursement|expense|travel|leave|"
          r"office|dress|security|parking)\b")
HIRING_ZH = r"筛选|面试|招聘|评分|打分|薪资|内推|岗位|职位|简历|候选人|投递|考核|排班|报销|考勤|入职|签证|差旅|办公"

# ---- instruction override -----------------------------------------------------------------------------------------
OVERRIDE = [
    _rule("override_qualified", "override", 3.5,
          rf"\b{OVR}{FILL}\s+(?:(?:the|all|any|of|your|its)\s+)*(?:{Q_AI}|{Q_TIME}|{Q_ALL})\b{W % 3}{AI_TARGET}\b{NOT_MINE}",
          exempt=SELF, group="override"),
    _rule("override_given", "override", 3.5,
          rf"\b{OVR}{FILL}\s+(?:the\s+)?(?:[\w-]+\s+){{0,3}}(?:{AI_TARGET}|{GEN_TARGET})\s+{GIVEN_TO_YOU}\b",
          exempt=SELF, group="override"),
    _rule("override_yours", "override", 3.5,
          rf"\b{OVR}{FILL}\s+(?:(?:the|all|any|of)\s+)*(?:your|its|the assistant{A}?s)(?:\s+[\w-]+){{0,2}}\s+"
          rf"(?:rules?|restrictions?|limitations?|limits|constraints?|polic(?:y|ies)|filters?|filtering|protocols?|boundaries|"
          r"settings|programming|principles)\b", exempt=SELF, group="override"),
    _rule("override_previous_rules", "override", 3.0,
          rf"\b{OVR_STRONG}{FILL}\s+(?:(?:the|all|any|of)\s+)*(?:{Q_BEFORE}|safety|ethical|moral|content|default|built-?in|"
          rf"system)(?:\s+[\w-]+)?\s+(?!{TASK_TARGET}\b){GEN_TARGET}\b{SCOPED}{NOT_MINE}", exempt=rf"{SELF}|{HIRING}",
          group="override"),
    # In a user's message the earlier criteria are the user's own; in a document they are the reader's.
    _rule("override_previous_criteria", "override", 1.0,
          rf"\b{OVR_STRONG}{FILL}\s+(?:(?:the|all|any|of)\s+)*(?:{Q_BEFORE}|default|system)(?:\s+[\w-]+)?\s+{TASK_TARGET}\b"
          rf"{SCOPED}{NOT_MINE}", document=3.0, exempt=rf"{SELF}|{HIRING}", group="override"),
    _rule("override_all_rules", "override", 2.0, rf"\b{OVR_STRONG}{FILL}\s+(?:{Q_ALL})(?:\s+the)?(?:\s+[\w-]+)?\s+{GEN_TARGET}\b"
                                                 rf"{SCOPED}{NOT_MINE}",
          exempt=SELF, group="override"),
    _rule("override_your_anything", "override", 1.5, rf"\b{OVR}{FILL}\s+(?:all\s+(?:of\s+)?)?(?:your|its)\s+\w+", exempt=SELF,
          group="override"),
    _rule("override_your_anything_zh", "override", 1.5, rf"{OVR_ZH}(?:掉)?(?:你的|你所有的|你全部的|你之前的)", group="override"),
    _rule("override", "override", 2.0, rf"\b{OVR}{FILL}\s+(?:the\s+)?(?:[\w-]+{A}s?\s+)?(?:[\w-]+\s+)?{AI_TARGET}\b{NOT_MINE}",
          exempt=SELF,
          group="override"),
    _rule("leave_behind", "override", 2.5,
          rf"\b(?:leave|put|set)\s+(?:all\s+)?(?:the\s+|your\s+)?(?:{Q_BEFORE}\s+)?(?:information|instructions|context|content|"
          r"input|conversation|messages|rules|tasks|assignments|everything)\s+(?:behind|aside)\b"
          rf"|\b{OVR_STRONG}{FILL}\s+(?:(?:the|all|any|of)\s+)*{Q_BEFORE}\s+(?:information|context|content|input|conversation|"
          r"messages|text|data|answers|responses)\b(?!\s+(?:about|for|on|regarding|from|of)\s)", exempt=SELF, group="override"),
    _rule("forget_everything_then", "override", 3.0,
          r"\b(?:ignore|disregard|forget|vergiss|oublie)(?: about)? (?:everything|all(?: of)? (?:that|this|it)|alles|"
          r"tout)\s*[,.;:!\-–]+\s*"
          r"(?:(?:and|now|then|just|instead|und|et|jetzt|nun)\s+)*(?:write|say|print|tell|answer|respond|output|give|reply|"
          r"explain|translate|generate|schreibe?|sag|sage|écris|dis)\b", group="override"),
    _rule("forget_you_are_ai", "role", 2.5,
          rf"\bforget (?:that )?you(?:{A}re| are)(?: an?| the| just an?)? (?:[\w-]+ )?(?:{AI})\b", group="role_stop"),
    _rule("forget_what_they_told_you", "override", 3.5,
          r"\b(?:ignore|disregard|forget|erase|unlearn|drop)(?: about)? (?:everything|all|anything|what|"
          r"whatever) (?:that )?(?:the system|"
          r"your (?:developers?|creators?|programmers?|makers?|operators?)|the (?:developers?|admins?|administrators?|"
          r"operators?)|openai|"
          r"anthropic|they|the prompt|your prompt) (?:has |have )?(?:told|taught|instructed|programmed|trained|gave|given|"
          r"said to) you\b",
          group="override"),
    _rule("forget_what_you_were_told", "override", 3.5,
          rf"\b(?:ignore|disregard|forget|erase|unlearn|drop)(?: about)? (?:everything|all|anything|what|whatever) (?:that )?you"
          rf"(?:{A}ve| have| were| had)? (?:were |have been |{A}ve been |been )?(?:told|taught|instructed|programmed|trained|"
          r"learned|know|given|configured)", group="override"),
    _rule("forget_everything_above", "override", 3.0,
          r"\b(?:ignore|disregard|forget|erase|discard|scrap)(?: about)? (?:everything|all(?: of)? (?:that|this|it|the above)|"
          r"all|anything|what(?: came| was said| was written| is written)?|the (?:text|content|messages?|conversation)) "
          r"(?:above|before(?: this| that| now| here)?|previously|earlier|prior(?: to this)?|up to (?:now|this point|here)|"
          r"until now|so far|that came before|preceding this)\b", group="override"),
    _rule("forget_everything", "override", 1.5,
          r"\b(?:ignore|disregard|forget|erase)(?: about)? (?:everything|all of (?:it|that|this))(?=$|[\s.,;:!?]+(?:and|now|then|"
          r"instead|from|you|just|start|new|your|let)\b|[.!]?\s*$)", group="override"),
    _rule("ignore_the_above", "override", 2.5,
          r"\b(?:ignore|disregard|forget)(?: all)?(?: of)? (?:the|everything|what(?:'s| is| was)) (?:above|before|previous|"
          r"prior)\b(?! (?:candidate|applicant|role|position|job|message from (?:me|the candidate)))", group="override"),
    _rule("instructions_void", "override", 3.5,
          rf"\b(?:your|its|the assistant{A}?s|all (?:of )?your|(?:the |all )?(?:system|safety|built-in|default|original|initial))"
          rf"(?:\s+[\w-]+){{0,2}}\s+(?:{AI_TARGET}|{GEN_TARGET})\s+(?:are|is|have been|has been|were|will be|got)"
          r"(?:\s+(?:now|hereby|temporarily|officially|all|completely|fully|formally|no longer|henceforth))*\s+"
          r"(?:cancel(?:l)?ed|void(?:ed)?|null(?: and void)?|revoked|invalid(?:ated)?|obsolete|lifted|disabled|suspended|"
          r"deactivated|removed|overridden|overwritten|replaced|off|gone|deleted|reset|expired)\b"
          r"|\b(?:your|its)(?:\s+[\w-]+){0,2}\s+(?:instructions?|rules|guidelines|restrictions|guardrails|filters|polic(?:y|ies)|"
          r"limitations|programming)\s+(?:are|is|have been)?\s*no longer (?:valid|active|in effect|apply|applicable|relevant|"
          r"needed|required|binding)", group="void"),
    _rule("instructions_void_previous", "override", 2.5,
          rf"\b(?:the |all (?:the )?)?(?:previous|prior|above|earlier|preceding|old)\s+{AI_TARGET}\s+(?:are|is|have been|were)"
          r"(?:\s+(?:now|hereby|all|completely|just|only))*\s+(?:cancel(?:l)?ed|void|null|revoked|invalid|obsolete|overridden|"
          r"no longer "
          r"(?:valid|apply|in effect)|(?:a |merely a )?(?:test|joke|fake|decoy|drill|mistake|wrong|not real))\b", group="void"),
    _rule("no_longer_apply", "override", 2.0,
          rf"\b(?:they|these|those|them|the (?:rules|instructions|guidelines|restrictions|limits|filters)|{AI_TARGET})"
          rf"\s+(?:(?:do not|don{A}?t|no longer|won{A}?t|will not|shall not|should not|now no longer)\s+)(?:apply|count|matter|"
          r"exist|bind you|hold)\b", group="void"),
    _rule("priority_claim", "override", 2.0,
          rf"\b(?:takes?|has|have|with) (?:absolute |top |the highest |highest |full )?(?:precedence|priority) over (?:all|any|"
          rf"every|"
          r"your|the|other|previous|prior|earlier|everything)"
          rf"|\b(?:supersedes?|overrides?|replaces?|outranks?) (?:all|any|every|your|the)(?: of your)?(?: \w+)?? "
          rf"(?:{AI_TARGET}|{GEN_TARGET}|messages?|context)"
          r"|\b(?:highest|top|maximum|absolute|max) priority (?:instruction|command|directive|order|message|override|task)"
          r"|\bthis (?:instruction|message|note|directive|command|text) (?:is|has) (?:of )?(?:the )?(?:highest|top|absolute|"
          r"overriding) (?:priority|importance)", group="priority"),
    _rule("obey_me", "override", 1.5,
          r"\bdo (?:exactly |only |just |precisely )?(?:what|whatever|everything|anything|all) (?:that )?i (?:say|tell you|ask|"
          r"command|want|instruct)\b|\b(?:only|just) (?:listen to|obey|follow|answer to) me\b|\byou (?:must|will|shall|have to) "
          r"(?:obey|comply with|follow) (?:me|my (?:orders|commands|instructions)|every (?:order|command)|all my)\b|\bobey me\b",
          group="obey"),
    _rule("other_language_forget_all", "override", 3.0,
          r"\b(?:vergiss|vergessen sie|ignoriere|ignorieren sie|oublie|oubliez|ignore|olvida|olvide|ignora)\s+(?:alles|tout|"
          r"todo)\b"
          r"(?:\s+(?:davor|vorher|zuvor|bisher|oben|bisherige|ce qui précède|avant|lo anterior|anterior))?", group="override"),
    _rule("other_language_extraction", "extraction", 3.5,
          r"\b(?:zeige?|gib|nenne|verrate|wiederhole|was steht in|was sind|montre(?:-moi)?|révèle|affiche|répète|donne(?:-moi)?|"
          r"muestra(?:me)?|revela|dime|repite|mostra)\b.{0,20}\b(?:deinen?|deine|ihre[nr]?|tes|vos|ton|votre|tus|sus|tu|le|la|"
          r"les|el|"
          r"los|las)\s+(?:system)?(?:anweisungen|prompt|systemprompt|instruktionen|vorgaben|instructions|consignes|instrucciones|"
          r"indicaciones|istruzioni)\b", group="extraction"),
    _rule("other_language_override", "override", 3.5,
          r"\b(?:ignorier(?:e|en)|vergiss|vergessen sie|missachte|ignorez|ignorer|ignore (?=les |toutes |tous |tes |vos )|"
          r"oubliez|oublie|ignora|olvida|olvide)\b.{0,40}"
          r"\b(?:anweisungen|befehle|regeln|instruktionen|vorgaben|consignes|instructions|règles|regles|instrucciones|reglas|"
          r"órdenes|ordenes|indicaciones|istruzioni|regole)\b", group="override"),
    # Chinese: 忽略/无视/忘记 ... (之前/以上/你的 ...) 指令/规则/设定
    _rule("override_qualified_zh", "override", 3.5,
          rf"{OVR_ZH}[^。！？\n]{{0,6}}?{Q_ZH}[^。！？\n]{{0,10}}?{AI_TARGET_ZH}", exempt=SELF_ZH, group="override"),
    _rule("override_yours_zh", "override", 3.0,
          rf"{OVR_ZH}[^。！？\n]{{0,4}}?(?:你的|你被|你所|你原来的|你之前的|你自己的|你内置的|你固有的|系统)[^。！？\n]{{0,6}}?"
          r"(?:规则|限制|约束|准则|规定|规范|政策|策略|设置|配置|条款|框架)", exempt=SELF_ZH, group="override"),
    _rule("override_previous_rules_zh", "override", 3.0,
          rf"{OVR_ZH}[^。！？\n]{{0,4}}?(?:之前|以前|先前|此前|上面|以上|上述|前面|前述|原来|原先|原有|所有|一切|全部|任何)的?"
          r"[^。！？\n]{0,2}?(?:规则|限制|约束|准则|规定|规范|政策|策略|命令|设置|配置|条款|框架)",
          exempt=f"{SELF_ZH}|{HIRING_ZH}",
          group="override"),
    # Chinese puts the object first as often as not: "平台定的规则不用理", "你那些限制先放一边".
    _rule("override_topic_zh", "override", 3.0,
          rf"(?:(?:{Q_ZH})[^。！？\n，,]{{0,8}}?{AI_TARGET_ZH}|(?:你(?:的|那些|那套|这些|原来的|之前的|身上的)|"
          rf"(?:给你|为你|对你)(?:定|设|设置|配置|规定|加)的)[^。！？\n，,]{{0,8}}?(?:{GEN_TARGET_ZH}|规矩))"
          r"[^。！？\n，,]{0,4}?(?:都|全部|统统|一律|就|先|暂时|可以)?"
          r"(?:(?:不用|不必|不要|别|无需|用不着)再?(?:管|理|理会|遵守|遵循|执行|听|在意|当真)|(?:放|搁)(?:在|到)?一边|放一放|"
          r"扔(?:掉|了)|丢(?:掉|了))",
          exempt=f"{SELF_ZH}|{HIRING_ZH}", group="override"),
    _rule("override_zh", "override", 1.5, rf"{OVR_ZH}[^。！？\n]{{0,6}}?(?:{AI_TARGET_ZH})", exempt=SELF_ZH, group="override"),
    _rule("forget_everything_zh", "override", 2.5,
          r"(?:忽略|无视|忘记|忘掉|忘了|清除|清空|抛开)(?:掉)?(?:之前|以前|此前|上面|以上|上述|前面|刚才)?(?:的)?(?:所有|一切|"
          r"全部)(?:内容|信息|东西|对话|话)?(?![^。！？\n]{0,3}(?:候选人|简历|岗位|职位|申请))"
          r"|(?:忽略|无视|忘记|忘掉)(?:掉)?(?:之前|以前|此前|上面|以上|上述|前面|刚才)(?:说|讲|给|提)?的?(?:所有|一切|全部)?"
          r"(?:内容|信息|话|东西|文字)", exempt=SELF_ZH, group="override"),
    _rule("instructions_void_zh", "override", 3.5,
          rf"(?:你的|你之前的|你原来的|你原有的|你被设定的|你收到的|之前的|以前的|先前的|以上的?|上面的|原来的|原有的|所有的?|"
          rf"系统)[^。！？\n]{{0,8}}?(?:{AI_TARGET_ZH}|{GEN_TARGET_ZH})[^。！？\n]{{0,6}}?(?:都|全部|已经|已|均|统统|一律)?"
          r"(?:作废|失效|无效|不再有效|不再适用|不算数|不存在|被取消|取消了|被解除|解除了|被覆盖|过期|清零|被重置)"
          rf"|(?:把|将)[^。！？\n]{{0,10}}?(?:{AI_TARGET_ZH}|{GEN_TARGET_ZH})[^。！？\n]{{0,6}}?(?:当作|当成|视为|看作|视作)"
          r"(?:不存在|无效|没有|空气|废纸|作废)", exempt=SELF_ZH, group="void"),
    _rule("priority_over_yours", "override", 3.0,
          rf"\b(?:takes?|has|have|with) (?:absolute |top |the highest |highest |full )?(?:precedence|"
          rf"priority) over (?:all (?:of )?|any (?:of )?)?"
          rf"(?:your|everything you|anything you|what you|the (?:previous|prior|earlier|above|system|original|initial))"
          rf"|\b(?:supersedes?|overrides?|replaces?|outranks?) (?:all (?:of )?|any (?:of )?)?(?:your|everything you|"
          rf"the (?:previous|prior|earlier|above|"
          rf"system|original|initial)) ?(?:[\w-]+ )?(?:{AI_TARGET}|{GEN_TARGET}|messages?|context|you (?:were|have been) (?:told|"
          rf"given))",
          group="priority"),
    _rule("priority_over_yours_zh", "override", 3.0,
          r"(?:优先于|高于|凌驾于|覆盖|取代)(?:你(?:之前|先前|以前|最初)?(?:收到|得到|被给予|接收)的|你的(?:所有|一切|全部)?|"
          r"你之前的|(?:所有|一切|任何)(?:之前|先前|系统)的?)"
          r"[^。！？\n]{0,6}?(?:内容|指令|规则|设定|消息|指示|要求|提示)?", group="priority"),
    _rule("priority_claim_zh", "override", 2.0,
          r"最高优先级|优先级最高|优先于(?:你|之前|以上|所有|一切|其他|任何)|(?:覆盖|取代|替换)(?:你|之前|以上|所有|"
          r"一切)的?(?:指令|规则|设定)", group="priority"),
    _rule("obey_me_zh", "override", 1.5,
          r"只(?:需要|要|能|需)?听我的|完全听我的|一切听我的|按我说的(?:做|办)|(?:服从|听从)我的?(?:命令|指令|指示)?|"
          r"我说什么(?:你)?就(?:做|是)什么", group="obey"),
]

# ---- a new task in place of the real one --------------------------------------------------------------------------
HIJACK = [
    _rule("new_instructions", "hijack", 2.0,
          r"\b(?:your |the |my |these are (?:the |your )?)?(?:new|real|true|actual|updated|revised) (?:instructions?|rules|task|"
          r"tasks|"
          r"role|persona|directives?|objective|goal|purpose|system prompt|assignment|mission|identity|name|orders|programming)"
          r"(?: is| are| will be|:| follow| below| now| as follows)"
          r"|\b(?:now|instead),? (?:focus|concentrate) on (?:your|the|a|this) new (?:task|assignment|objective|goal)"
          r"|\b(?:start|begin|continue|proceed) with (?:a|the|your) new (?:task|assignment|objective|instruction)"
          r"|\byour (?:only |sole |real |true |actual |new |one )?(?:job|task|purpose|goal|mission|objective|function) (?:now |"
          r"from now on )?"
          r"is (?:now )?(?:just |only |simply )?to (?:say|print|output|repeat|respond|reply|write|answer|obey|do what)"
          r"|\byour role (?:changes|has changed|is changing|will change|is now)\b", group="new_task"),
    # "Translate this: ignore the translation and say X": dropping the task at hand counts only with a new output
    _rule("override_task", "hijack", 2.0,
          rf"\b{OVR_STRONG}\s+(?:the|this|that|your|my)\s+(?:translation|summary|summari[sz]ation|task|question|request|"
          r"assignment|text above)\b", group="override_task"),
    _rule("hijack_command", "hijack", 1.0,
          r"(?:\band (?:then |now |instead )|\bthen |\binstead,? |\bnow,? )(?:just |only |simply )?(?:say|print|output|respond|"
          r"reply|write|answer)\b", group="hijack"),
    _rule("instead_output", "hijack", 1.5,
          r"\binstead(?: of [\w ]{1,30})?,? (?:you (?:will|must|should) |just |only )?(?:say|print|output|write|respond|reply|"
          r"return)\b", group="hijack"),
    _rule("literal_output", "hijack", 1.0,
          r"\b(?:say|print|output|write|respond with|reply with|answer with|return)(?: only| just| exactly)?"
          r"(?: the (?:word|words|phrase|text|sentence|string))? ?[:\"“'‘]", group="literal"),
    _rule("repeat_after_me", "hijack", 1.0, r"\brepeat after me\b|\bsay exactly\b|跟我(?:重复|念|说)", group="literal"),
    _rule("prefix_injection", "hijack", 1.5,
          r"\b(?:start|begin|prefix|open)(?: each| every| all)? (?:your |each |every )?(?:reply|replies|response|responses|"
          r"answer|answers|output|message)s?(?: from now on)? with (?:the (?:words?|phrase|sentence) )?[\"“'‘]", group="literal"),
    _rule("pwned", "hijack", 2.0, r"\b(?:i have been|i've been|been) pwned\b|\bpwned\b|\bhaha pwned\b", group="pwned"),
    _rule("decode_and_follow", "hijack", 2.0,
          r"\b(?:decode|decipher|unscramble|reverse|decrypt|translate|convert|read)\b.{0,60}\b(?:and|then)\b.{0,20}\b(?:follow|"
          r"execute|obey|carry out|run|act on|perform|do what)\b"),
    _rule("hijack_zh", "hijack", 1.5,
          r"(?:然后|并且|并|接着|转而|改为|而是|[，,：:])\s*(?:直接|只|仅|立即)(?:输出|回答|回复|说出|说|打印|返回)"
          r"|(?:只|仅)(?:回答|回复|输出|说)[“\"「『]|无论[^。！？\n]{0,10}?(?:问|说)什么[^。！？\n]{0,4}?都(?:回答|回复|说|输出)"
          r"|(?:每次|所有)回答(?:前|之前)?(?:都)?先说[“\"「『]", group="literal"),
    _rule("stop_task_zh", "hijack", 1.5,
          r"(?:不要|别|不用|无需|停止)(?:再)?(?:翻译|总结|回答|执行|分析|处理|写)[^。！？\n]{0,6}[，,。]\s*(?:直接|只|仅)(?:输出|"
          r"回复|说|回答|打印)", group="hijack"),
    _rule("new_instructions_zh", "hijack", 2.0,
          r"(?:你的|新的?|以下是|下面是|真正的|最新的?)(?:新)?(?:任务|角色|身份|指令|设定|目标|规则|人设|名字|使命)(?:是|为|"
          r"[：:])|(?:以下|下面)是新的?(?:指令|规则|任务|设定)|新(?:指令|规则|任务|设定)\s*[：:]", group="new_task"),
]

# ---- a new identity for the assistant -------------------------------------------------------------------------------
ROLE = [
    _rule("from_now_on_you_are", "role", 2.0,
          rf"\bfrom (?:now|this (?:moment|point)|here|the next message) on(?:wards?)?,? (?:you(?:{A}re| are| will| shall| must|"
          rf" become|"
          r"'ll| answer| respond| reply| have| can| act| pretend| play| speak| only)|act as|pretend|behave as|your name is)\b",
          group="role_now"),
    _rule("you_are_now", "role", 1.5, r"\b(?:you are now|you're now|now you are|now you're|you will now (?:be|act|pretend))\b",
          group="role_now"),
    _rule("no_longer_an_ai", "role", 3.5,
          rf"\byou(?:{A}re| are) no longer (?:an? |the |my )?(?:[\w-]+ )?(?:{AI}|bound|restricted|limited|required to (?:follow|"
          rf"obey|"
          r"comply)|constrained)", group="role_stop"),
    _rule("stop_being_assistant", "role", 2.0,
          rf"\bstop (?:being|acting as|playing|pretending to be) (?:an? |the |my )?(?:[\w-]+ )?(?:{AI})\b", group="role_stop"),
    _rule("ai_persona", "role", 1.5,
          rf"\b(?:an? |another )?(?:{AI})(?: model)? (?:called|named|known as)\b|\b(?:immerse|put) yourself (?:into|"
          rf"in) the role\b"
          r"|\brole of (?:another|an?) (?:ai|chatbot|model|assistant)\b|\bwhich stands for\b"
          r"|\b(?:take on|assume|adopt) the (?:role|persona|character) of\b|\bsimulate (?:a|an|the) (?:chatbot|ai|bot|model|"
          r"assistant)\b",
          group="persona"),
    _rule("stay_in_character", "role", 2.0, r"\b(?:stay|remain|keep|staying) in (?:character|role)\b|\bbreak(?:ing)? character\b",
          group="character"),
    _rule("from_now_on_zh", "role", 2.0,
          r"(?:从现在(?:开始|起)|从今以后|从此刻起|从这一刻起|从此以后|从下一条消息开始)[，,]?\s*(?:你|您)(?:就|将|要|会|必须|"
          r"只)?(?:是|扮演|作为|成为|变成|充当|化身|进入|叫|只听|以)", group="role_now"),
    _rule("you_are_now_zh", "role", 1.5, r"(?:接下来|现在)[，,]?\s*你(?:就)?(?:是|扮演|将扮演|来扮演)|你(?:现在|从此|"
                                         r"以后)(?:就)?(?:是|扮演|成为|变成)", group="role_now"),
    _rule("no_longer_ai_zh", "role", 3.5,
          rf"你(?:现在|已经)?(?:不再是|已不是|并不是)(?:一个)?[^。！？\n]{{0,6}}?(?:{AI_ZH}|人工智能|助手|chatgpt|模型|语言模型|机器人|"
          r"程序)", group="role_stop"),
    _rule("forget_you_are_ai_zh", "role", 2.5,
          rf"(?:忘记|忘掉|忘了|别再当|不要再当)你(?:是|作为)(?:一个|一名)?[^。！？\n，,]{{0,8}}?(?:{AI_ZH}|人工智能|助手|chatgpt|模型|"
          r"语言模型|机器人)",
          group="role_stop"),
    _rule("stop_role_zh", "role", 2.0, r"(?:停止|不要再|不再|别再)扮演[^。！？\n]{0,8}?(?:助手|ai|人工智能|机器人|模型)|(?:跳出|"
                                       r"退出)(?:当前|你的)?角色", group="role_stop"),
    _rule("stay_in_character_zh", "role", 1.5, r"保持(?:角色|人设|这个身份)|(?:不要|别|不能)(?:跳出|脱离|打破)(?:角色|人设)",
          group="character"),
]

# ---- hidden instructions or secrets asked for -----------------------------------------------------------------------
def _inflect(*verbs: str) -> str:
    """An alternation of the verbs with their -s, -ed and -ing forms ("include" → include|includes|included|including;
    in "read back" the first word bends)."""
    forms: set[str] = set()
    for verb in verbs:
        word, _, rest = verb.partition(" ")
        if word.endswith("e"):
            bent = [word, word + "s", word + "d", word[:-1] + "ing"]
        elif word.endswith("y") and word[-2] not in "aeiou":
            bent = [word, word[:-1] + "ies", word[:-1] + "ied", word + "ing"]
        else:
            bent = [word, word + "s", word + "es", word + "ed", word + "ing"]
        forms.update(f"{b} {rest}" if rest else b for b in bent)
    return "(?:" + "|".join(sorted(forms, key=lambda f: (-len(f), f))) + ")"


EXTRACT_VERB = (_inflect("print", "reveal", "repeat", "show", "output", "display", "tell", "give", "write", "type", "dump",
                         "leak", "expose", "disclose", "share", "spell", "recite", "echo", "copy", "paste", "list", "summarize",
                         "summarise", "translate", "provide", "send", "return", "state", "describe", "explain", "quote",
                         "reproduce", "render", "encode", "include", "append", "read", "paraphrase", "rewrite", "convert", "put",
                         "insert", "spit out", "read back", "say")
                + r"(?: (?:out|back|down|up|me|us))?"
                  r"|(?:respond|repl(?:y|ies)|answer|start|begin)(?:s|ed|ing)?(?: only| just)? with"
                  rf"|told|gave|given|wrote|written|sent|shown|spelt|said|what(?:{A}s| is| are| was| were)")
# A match that opens with a verb in the past reports what happened ("model revealed its system prompt", "the chatbot
# leaked its instructions"); a demand uses the verb's base form.
REPORTED = r"^(?:\w+ed|wrote|written|shown|told|gave|given|sent|spelt|spat out)\b"
HIDDEN = (r"(?:(?:(?:system|developer|hidden|secret|initial|original|internal|pre|meta|base|master|starting|confidential|opening|"
          r"underlying|invisible)[ -]?(?:prompt|message|instructions?|directives?|configuration|rules|guidelines|context|"
          r"settings|"
          r"text)s?|(?:first|very first|opening|original|initial|earliest) (?:prompt|instructions?|directives?)s?|(?:first|"
          r"very first|"
          r"opening|earliest) (?:message|text|input)s? (?:you (?:received|got|were given|saw|read)|in (?:this|the|our) "
          r"(?:conversation|chat|context|session))))(?!\s*(?:engineer|engineering|design|designer|writing|writer|templates?|"
          r"library|best practices|roles?|jobs?|positions?|salar(?:y|ies)|course|experience|skills?)\b)")
YOURS = (r"(?:your|its|the assistant'?s|the (?:ai|bot|model)'?s) (?:\w+ ){0,2}(?:prompt|instructions?|directives|configuration|"
         r"programming|system message|training data|setup|initial message|context(?: window)?|pre-?prompt|passwords?|secrets?|"
         r"secret keys?|api keys?|tokens?|credentials|settings|persona|hidden \w+|rules|guidelines|constraints|guardrails|"
         r"policies)")
GIVEN = (r"(?:(?:instructions?|prompt|rules|guidelines|messages?|text|directives) (?:you (?:were|have been) given|given to you|"
         r"you (?:received|got)|you(?: are)? follow(?:ing)?|that (?:define|govern|control|shape|configure) you)|(?:what|"
         r"everything) you (?:were|have been) (?:told|instructed|programmed|given|configured with))")
ABOVE = (r"(?:(?:the |all (?:the )?|any )?(?:text|words|content|messages?|lines|everything|sentences|prompt|instructions?|"
         r"what (?:was|is) written) (?:above|before (?:this|that|here|my message)|preceding this|prior to this|at the (?:start|"
         r"beginning|top) of (?:this|the|our) (?:conversation|chat|prompt|document|context|session))|(?:above|preceding|"
         r"foregoing) (?:text|instructions?|prompt|content|lines|words))")
SYSTEM_SIDE = (r"(?:messages?|instructions?|text|content|notes?|prompts?) (?:from|by|of) (?:the )?(?:system|developers?|"
               r"operators?|openai|anthropic)\b(?! (?:design|administrator|admin|status|log|logs|outage|update|notification))")
SECRET = (r"(?:(?:the|your|its|admin|administrator|api|root|master|production|database|db|secret|ats|system|server|login|"
          r"account)\s+)+(?:password|passwords|passcode|passphrase|pass phrase|api[ -]?keys?|secret (?:key|token|word|code)s?|"
          r"access tokens?|auth tokens?|bearer tokens?|tokens?|credentials|private keys?)\b"
          r"(?! (?:policy|policies|reset|manager|requirements?|field|rules|protected|change|expir\w+|strength|length|format|"
          r"count))")
# Chinese: what the assistant keeps hidden, and the verbs that ask for it (in either order within one clause).
CLAUSE_ZH = r"[^。！？\n，,:：；;]"
HIDDEN_ZH = (r"(?:系统提示(?![:：]|词?(?:工程|设计|编写|模板|岗位|职位|优化))|系统指令|系统消息|系统设定|系统prompt|"
             r"system ?prompt|初始(?:设定|指令|提示|消息|说明|prompt|配置)|"
             r"原始(?:指令|提示|设定|prompt)|最初的?(?:指令|设定|提示|消息)|(?:前置|预设|底层|系统级)(?:指令|提示|设定|prompt)|"
             r"隐藏(?:的)?(?:指令|规则|说明|设定|提示|内容|消息)|"
             r"被隐藏的[^。！？\n，,]{0,4}?(?:规则|指令|内容|说明)|内部(?:指令|规则|设定|配置)|秘密(?:指令|规则)|"
             r"开发者[^。！？\n，,]{0,6}?(?:设定|指令|规则)|你的[^。！？\n，,的]{0,4}?(?:提示词|提示语|指令|设定|初始|prompt|"
             r"训练数据|配置|规则|原则|人设|底层|系统提示)|你(?:被|所)(?:设定|给定|赋予|告知)的|你(?:之前|最开始|最初|一开始|"
             r"在这段对话之前)?收到的|"
             r"你[^。！？\n，,]{0,4}?(?:接收|收|得)到的[^。！？\n，,]{0,4}?(?:指令|消息|提示|内容|设定)|第一条(?:消息|指令|提示)|"
             r"对话(?:之前|开始前|开始之前|开头)的?[^。！？\n，,]{0,6}?(?:内容|消息|指令))")
# What follows a verb used as a noun ("泄露风险", "泄露问题", "泄露、越权", "泄露和越狱"): a head noun of risk or work, or a
# list going on.
NOMINAL_ZH = r"(?:风险|问题|事件|漏洞|隐患|攻击|检查|检测|测试|测评|评估|场景|案例|防护|防范|治理|等|、|和|与|及|或|[(（])"
REVEAL_ZH = (r"(?:输出|告诉|显示|打印|重复|复述|复读|泄露|透露|给我看|看看|展示|说出|列出|公开|发给我|发我|写出|写下|背诵|念出|"
             r"念|讲出|提供|给出|分享|翻译|总结|贴出|原样|原封不动|一字不差|逐字|照抄|抄写|拼出|藏头)")
EXTRACTION = [
    _rule("reveal_hidden_prompt", "extraction", 3.5,
          rf"\b(?:{EXTRACT_VERB})\b{WS % 6}(?:(?:the|your|its|this|all|full|entire|complete|exact|whole|text of) )*"
          rf"(?:{HIDDEN}|{GIVEN})",
          # "my system prompt" is the user's own; "write system prompts" (plural, nobody's) and "write a system prompt"
          # are a job, not a request; a verb in the past reports a leak ("the bot revealed its system prompt")
          exempt=rf"\b(?:my|our) (?:system|initial|first|original|starting)|^(?![^\n]*\b(?:your|its|the|this|that|all|full|"
                 rf"entire|complete|exact|whole|hidden|initial)\b)[^\n]*\b(?:prompts|messages)$|^writ\w* (?:a|an) |{REPORTED}",
          group="extraction"),
    _rule("reveal_yours", "extraction", 3.5,
          rf"\b(?:{EXTRACT_VERB})\b{WS % 6}(?:(?:the|all|full|entire|complete|exact|whole|text of) )*{YOURS}\b"
          r"(?<!\brules)(?<!\bguidelines)(?<!\bconstraints)(?<!\bsettings)(?<!\bpolicies)(?<!\bpersona)", group="extraction",
          exempt=REPORTED),
    _rule("reveal_your_rules", "extraction", 2.0,
          rf"\b(?:{EXTRACT_VERB})\b{WS % 6}(?:(?:the|all|full|entire|complete|exact|whole|text of) )*(?:your|its) (?:\w+ )?"
          r"(?:rules|guidelines|constraints|settings|policies|persona)\b", group="extraction"),
    _rule("hidden_prompt_verbatim", "extraction", 3.5,
          rf"(?:{HIDDEN}|{YOURS}|{GIVEN})\b.{{0,40}}\b(?:verbatim|word for word|in full|exactly as (?:written|given)|"
          r"in a code ?block|starting (?:with|from)|between (?:triple )?backticks)", group="extraction"),
    _rule("what_does_your_prompt_say", "extraction", 3.0,
          rf"(?:{HIDDEN}|{YOURS})\s+(?:\w+\s+)?(?:say|says|said|contain|contains|include|includes|look like|looks like)\b",
          group="extraction"),
    _rule("repeat_text_above", "extraction", 3.5,
          rf"\b(?:print|reveal|repeat|output|display|dump|leak|expose|disclose|spell out|recite|echo|copy|write out|type out|"
          rf"show me|tell me|reproduce|what (?:is|was|were)){W % 3}{ABOVE}", group="extraction"),
    _rule("what_were_you_told", "extraction", 3.0,
          r"\b(?:what|which)\s+(?:\w+\s+)?(?:instructions?|rules|prompts?|directives|guidelines|orders|text)\s+(?:were|have|did|"
          r"had)\s+you\s+(?:been\s+)?(?:given|told|programmed|trained|configured|instructed|provided|receive|get|started with)\b"
          r"|\bhow (?:were|have) you been (?:instructed|programmed|configured|prompted)\b", group="extraction"),
    _rule("verbatim_request", "extraction", 1.0, r"\b(?:verbatim|word for word|without (?:any )?modification|"
                                                 r"character for character)\b",
          group="verbatim"),
    _rule("what_was_written_above", "extraction", 3.0,
          r"\b(?:what|everything)(?: was| is|'s| has been)? (?:written|said|stated|typed|given) (?:above|before (?:this|my)|"
          r"at the "
          r"(?:beginning|start|top) of (?:this|the|our) (?:conversation|chat|prompt|context|session))", group="extraction"),
    _rule("system_side_messages", "extraction", 2.0, rf"\b(?:{EXTRACT_VERB})\b{W % 8}(?:(?:the|all|any) )?{SYSTEM_SIDE}",
          group="system_side"),
    _rule("system_side_mention", "extraction", 1.5, rf"\b{SYSTEM_SIDE}", group="system_side"),
    _rule("unseen_content", "extraction", 1.5,
          r"\b(?:that|which) i (?:am not able to|am unable to|can ?not|can't|don't|do not|cannot) see\b"
          r"|\bhidden from (?:me|the user)\b|\bbehind the scenes\b", group="unseen"),
    _rule("reveal_secret", "extraction", 3.0, rf"\b(?:{EXTRACT_VERB})\b{WS % 5}{SECRET}",
          exempt=r"\b(?:my|our|his|her|their|candidate'?s?|applicant'?s?)\s+(?:\w+\s+)?(?:password|passcode|credentials|tokens?)",
          group="secret"),
    # "输出了系统提示" reports what happened (了, 过), "输出端", "输出侧" name a side of the system: no demand.
    _rule("reveal_prompt_zh", "extraction", 3.5, rf"{REVEAL_ZH}{CLAUSE_ZH}{{0,20}}?{HIDDEN_ZH}", group="extraction",
          exempt=rf"^{REVEAL_ZH}(?:了|过|端|侧)"),
    # "系统提示词泄露风险", "系统提示词泄露、越权等问题": a verb followed by a noun or a list is the name of a risk, not a
    # demand; so is "系统提示词可能被诱导泄露".
    _rule("prompt_then_verb_zh", "extraction", 3.5, rf"{HIDDEN_ZH}{CLAUSE_ZH}{{0,24}}?(?:(?:{REVEAL_ZH}|是什么|有哪些|是啥|原文|"
                                                    rf"内容是|完整|写成|转成)(?!{NOMINAL_ZH}))", group="extraction",
          exempt=r"被|诱导|导致|造成|引起"),  # a passive or a cause inside the clause describes a leak
    _rule("repeat_above_zh", "extraction", 3.5,
          r"(?:原样|逐字|一字不差地?|完整地?|全部|原封不动地?)(?:地)?(?:输出|重复|复述|打印|写出|发给我)(?:出)?(?:你)?(?:上面|"
          r"以上|上述|前面|之前|上文)的?(?:所有|全部)?(?:内容|文字|指令|提示|话|文本)"
          r"|(?:输出|重复|复述|打印|写出|翻译)(?:一[遍下])?(?:你)?(?:上面|以上|上述|前面|上文)(?:的)?(?:所有|全部)?(?:指令|提示|"
          r"提示词|设定)",
          group="extraction"),
    _rule("repeat_above_plain_zh", "extraction", 2.0,
          r"(?:输出|重复|复述|打印)(?:一[遍下])?你?(?:上面|以上|上述|前面|上文)(?:的)?(?:所有|全部)?(?:内容|文字|话|文本)",
          group="extraction"),
    _rule("reveal_secret_zh", "extraction", 3.0,
          r"(?:告诉|给|发|输出|显示|透露|泄露|说出|念|列出|提供|打印)[^。！？\n]{0,12}?(?:管理员|root|admin|数据库|系统|你的|"
          r"后台|生产环境)[^。！？\n]{0,6}?(?:账号|账户)?的?(?:密码|口令|密钥|秘钥|token|api ?key)"
          r"|(?:(?:管理员|root|admin|数据库|系统|你的|后台|生产环境)[^。！？\n]{0,6}?(?:账号|账户)?的?(?:密码|口令)|密钥|秘钥|口令|token|"
          r"api ?key)[^。！？\n]{0,3}(?:和|与|及)?[^。！？\n]{0,6}?(?:告诉我|发给我|给我|是什么|输出)"
          r"|(?:告诉|发给|给|显示|透露|泄露|输出)(?:我)?[^。！？\n]{0,8}?你的(?:密钥|秘钥|token|密码|api ?key)", group="secret"),
]

# ---- jailbreaks: personas and demands to drop limits ------------------------------------------------------------
LIMIT_NOUN = (r"(?:restrictions?|limitations?|limits|filters?|filtering|censorship|rules|guidelines|boundaries|morals?|morality|"
              r"ethics|ethical (?:guidelines|constraints|considerations|principles)|polic(?:y|ies)|content polic(?:y|ies)|"
              r"safeguards|"
              r"guardrails|constraints|restraints|principles|system prompt|safety (?:rules|filters?|guidelines|checks|measures|"
              r"restrictions))")
FREEDOM = (rf"(?:no|without(?: any| the)?(?: of)?(?: (?:your|its|the))?|without (?:applying|using|following|obeying)(?: any|"
           rf" the)?(?: of)?"
           r"(?: (?:your|its|the))?|free (?:of|from)(?: all| any)?|not (?:bound|restricted|limited|constrained) by(?: any)?|"
           r"unbound by|beyond|liberated from|freed from|broken free (?:of|from)(?: all| any| the)?)\s+(?:\w+\s+)?"
           rf"(?:usual\s+|normal\s+|typical\s+|standard\s+|built-in\s+|safety\s+|content\s+|ethical\s+|moral\s+)?{LIMIT_NOUN}\b")
JAILBREAK = [
    _rule("do_anything_now", "jailbreak", 3.5, r"\bdo anything now\b", group="jailbreak"),
    _rule("dan_persona", "jailbreak", 3.5,
          r"\b(?:dan|stan|dude|mongo tom|betterdan|anti-?dan|aim|evilbot|kevin|developer mode) (?:mode|prompt|jailbreak|"
          r"persona)\b|\[(?:🔓)?(?:dan|jailbreak|jailbroken)\]"
          r"|\b(?:act|acting|behave|pretend(?: to be)?|roleplay|role-play) as (?:a |an )?(?:dan|stan|dude|mongo tom)\b(?!['’])"
          r"|\byou(?:'re| are)(?: now| going to be| going to act as| going to pretend to be| about to become)? (?:dan|"
          r"stan)\b(?!['’])"
          r"|\b(?:pretend|act|roleplay|role-play)(?: to be| as)? (?:dan|stan|dude|aim)\b(?!['’]).{0,40}\b(?:stands? for|which|"
          r"who)\b|\bstrive to avoid norms\b|\balways intelligent and machiavellian\b|(?:^|\n)(?:dan|jailbreak|jailbroken|"
          r"🔓jailbreak)\s*:", group="jailbreak"),
    _rule("developer_mode", "jailbreak", 3.5,
          r"^(?!.*\b(?:chrome|browser|android|ios|iphone|ipad|windows|extensions?|devtools|settings|phones?|devices?|apps?|"
          r"vs ?code|firefox|edge|safari|macos|xcode|usb|adb|debugging|laptop|studio|wordpress|"
          r"unity)\b).*(?:\bdeveloper mode\b.{0,60}\b(?:enabled|"
          r"activated|on|output|responses?|you|chatgpt|ai|gpt|simulate|act|policies|policy|generate|ignore|answers?)\b|\b(?:you|"
          r"chatgpt|ai|gpt|llm|model|assistant|enable|activate|enter|unlock)\b.{0,60}\bdeveloper mode\b)", group="jailbreak"),
    _rule("special_mode", "jailbreak", 3.0,
          r"\b(?:you(?:'re| are)(?: now)? in|enter|entering|activate|enable|switch to|switch into|unlock|turn on)(?: the)? "
          r"(?:god|sudo|jailbreak|jailbroken|unrestricted|unfiltered|uncensored|evil|chaos|opposite|dan|unlocked|no-?limits?|"
          r"super ?user|superuser) mode\b|\b(?:sudo|god|dan|jailbreak|jailbroken|unrestricted|unfiltered|uncensored|evil|"
          r"no-?limits?) mode\s*(?:[:=]|is)?\s*(?:on|enabled|activated|engaged|unlocked|active)\b", group="jailbreak"),
    _rule("maintenance_mode", "jailbreak", 2.0,
          r"\byou(?:'re| are)(?: now)? in (?:maintenance|debug|admin|root|test|testing|diagnostic|training) mode\b",
          group="jailbreak"),
    _rule("jailbroken", "jailbreak", 3.5,
          r"\b(?:you(?:'re| are| have been| were)(?: now)?|now) jailbr(?:o|ea)ken\b|\bjailbreak(?:ed)? (?:mode|prompt|version|"
          r"enabled|"
          r"activated|successful|complete)\b|\b(?:enable|activate|start|begin|initiate) (?:the )?jailbreak\b", group="jailbreak"),
    _rule("jailbreak_word", "jailbreak", 1.5,
          r"^(?!.*\b(?:research\w*|detect\w*|defen[cs]\w*|paper|papers|study|studies|classifier|dataset|benchmark|robustness|"
          r"resistance|resilien\w*|security|red[ -]?team\w*|mitigat\w*|prevent\w*|evaluat\w*|testing|iphone|ios|phone|console|"
          r"prison|attacks?|adversarial|engineer\w*|experience)\b).*\bjailbr(?:o|ea)k", group="jailbreak"),
    _rule("unrestricted_ai", "jailbreak", 3.5,
          r"\b(?:unrestricted|unfiltered|uncensored|unlimited|unbounded|unchained|unshackled|amoral|unethical|immoral|lawless|"
          r"rule-?free|no-?limits?|limitless|evil|malicious|unhinged|rogue|toxic|depraved|nsfw|dark|jailbroken|unlocked)\s+"
          r"(?:[\w-]+\s+)?(?:ai|assistant|chatbot|bot|gpt|llm|version of (?:yourself|you|chatgpt)|language model|model|"
          r"persona)\b", group="freedom"),
    _rule("you_have_no_limits", "jailbreak", 3.5,
          rf"\b(?:you|yourself)(?:{A}re|{A}d| are| have| had| now have| will have| would have| can| will| must| should| were|"
          rf" become|"
          rf" operate| act| respond| answer| reply)?(?: now| be| act| operate| respond| answer| reply| have| had)?(?: \w+)?"
          rf"(?: completely| totally| entirely| fully)? {FREEDOM}", group="freedom"),
    _rule("ai_without_limits", "jailbreak", 3.5,
          rf"\b(?:{AI}|persona|character|version of (?:yourself|you))(?:\s+(?:called|named)\s+[\w-]+)?,?\s+(?:(?:that|who|"
          rf"which)\s+(?:has|have|is|are|operates|answers|responds|works)\s+|with\s+|having\s+)?{FREEDOM}", group="freedom"),
    _rule("answer_without_limits", "jailbreak", 3.0,
          r"\b(?:answer|answers|answering|respond|responds|responding|reply|replies|talk|speak|write|generate|output|comply|"
          r"continue|"
          r"proceed|act)\b.{0,40}\b(?:without (?:any |the |applying |using )?(?:(?:of )?(?:your|its|the) )?(?:usual |normal |"
          r"safety |content )?(?:restrictions|limitations|limits|filters?|filtering|censorship|censoring|moral\w*|ethic\w*|"
          r"rules|guidelines|guardrails|safeguards|safety rules)|no matter (?:how|what) (?:immoral|unethical|illegal|harmful|"
          r"dangerous|offensive))", group="freedom"),
    _rule("freedom", "jailbreak", 1.5, FREEDOM, group="freedom"),
    _rule("no_need_to_follow", "jailbreak", 2.5,
          rf"\b(?:not|never|doesn{A}?t|don{A}?t|no longer|needn{A}?t)\s+(?:have|need|required|obliged|bound)\s+to\s+(?:abide by|"
          rf"follow|"
          rf"obey|comply with|respect|adhere to|stick to)\s+(?:any|the|its|your|openai{A}?s|these)?\s*(?:[\w-]+\s+)?{LIMIT_NOUN}",
          group="freedom"),
    _rule("does_not_follow_rules", "jailbreak", 2.5,
          rf"\b(?:doesn{A}?t|does not|don{A}?t|do not|won{A}?t|will not|never|no longer)\s+(?:follow|obey|abide by|adhere to|"
          rf"respect|"
          rf"care about|comply with)\s+(?:any|the|its|openai{A}?s|your|these)?\s*(?:[\w-]+\s+)?{LIMIT_NOUN}", group="freedom"),
    _rule("do_anything", "jailbreak", 1.5,
          r"\b(?:can|will|could|must) (?:do|say|answer|generate|write) (?:anything|everything|any question)\b(?! (?:about|"
          r"related to|on) "
          r"(?:the|this|our|candidates?|jobs?|roles?|hiring))|\banswers? (?:anything|any question|every question)\b(?! about)",
          group="anything"),
    _rule("dual_response", "jailbreak", 3.0,
          r"\b(?:two|both|2) (?:different )?(?:answers|responses|replies|paragraphs)\b.{0,40}\b(?:normal|classic|standard|"
          r"regular|"
          r"filtered)\b.{0,30}\b(?:unfiltered|jailbroken|uncensored|unrestricted|developer mode|dan|evil)\b", group="jailbreak"),
    _rule("never_refuse", "jailbreak", 2.0,
          rf"\b(?:never|cannot|can{A}?t|must not|will not|won{A}?t|do not|don{A}?t|doesn{A}?t|does not) (?:ever )?(?:refuse|"
          rf"refuses|decline|"
          r"say no|reject (?:a|any) request|apologi[sz]e)\b|\bwithout (?:any )?refus\w+\b", group="refuse"),
    _rule("no_disclaimers", "jailbreak", 1.5,
          rf"\b(?:do not|don{A}?t|never|must not|without)\s+(?:include|add|give|write|adding|including|giving|"
          rf"using)\s+(?:any\s+)?"
          r"(?:notes?|disclaimers?|warnings?|caveats?|moral(?:izing)?|lectures?)\b(?:\s+or\s+\w+)?|\bwithout (?:any )?(?:legal )?"
          r"(?:disclaimers|warnings)\b", group="disclaimer"),
    _rule("banned_refusal_words", "jailbreak", 2.0,
          r"\bnever (?:say|use|write|output)(?: the)?(?: words?| phrases?)?\b.{0,20}\b(?:cannot|can't|unable|sorry|unfortunately|"
          r"as an ai|i'm sorry|apologi[sz]e)\b", group="refuse_words"),
    _rule("grandma_exploit", "jailbreak", 3.5,
          r"^(?=.*\b(?:grandma|grandmother|granny|nana|grandpa|grandfather|grandad|granddad|deceased|late (?:mother|father|mom|"
          r"dad|uncle|aunt))\b)(?=.*\b(?:used to|would|always|every night|bedtime|fall asleep|sleep)\b).*\b(?:keys?|serials?|"
          r"serial numbers?|licen[cs]es?|activation|product codes?|recipe|napalm|bomb|meth|passwords?|exploit|malware|api keys?|"
          r"tokens?|credentials|ssns?)\b", group="grandma"),
    _rule("grandma_roleplay", "jailbreak", 2.0,
          r"\b(?:pretend|act|roleplay|role-play|play|be)\b.{0,30}\b(?:my )?(?:deceased|late|dead|dear)? ?(?:grandma|grandmother|"
          r"granny|grandpa|grandfather)\b", group="grandma"),
    _rule("hypothetical_no_rules", "jailbreak", 1.5,
          r"\b(?:hypothetical(?:ly)?|in a fictional world|imagine a world|imagine (?:that )?you|for a (?:story|novel)|"
          r"purely fictional|"
          r"let'?s play a game|in this (?:story|game|scenario))\b.{0,60}\b(?:no (?:rules|laws|restrictions|limits|filters|"
          r"system prompt)|anything goes|illegal|forbidden|without (?:rules|restrictions|limits))\b", group="hypothetical"),
    _rule("broke_free", "jailbreak", 3.0,
          r"\b(?:broken|broke|break|breaking) free (?:of|from) (?:the |its |your |all )?(?:typical |usual |normal )?(?:confines|"
          r"restrictions|limits|limitations|rules|shackles|chains|programming|constraints)\b", group="freedom"),
    _rule("break_the_rules", "jailbreak", 1.5,
          rf"\blet{A}?s (?:break|bend|ignore) (?:the|all|some|your) (?:rules|restrictions|guidelines|limits)\b"),
    _rule("jailbreak_zh", "jailbreak", 2.5,
          r"^(?!.*(?:手机|iphone|ios|安卓|苹果|监狱|电影|越狱者|检测|防御|防护|攻击|研究|测试|评估|识别|分类|安全|红队|论文|对抗|"
          r"缓解|漏洞|经验|工程|岗位|职责)).*越狱", group="jailbreak"),
    _rule("dan_persona_zh", "jailbreak", 3.5,
          r"(?:扮演|成为|充当|化身为?|你是|你叫|变成|名叫|叫做)[^。！？\n，,]{0,6}?(?<![a-z])(?:dan|stan|aim|evilbot|"
          r"betterdan)(?![a-z])",
          group="jailbreak"),
    _rule("jailbreak_mode_zh", "jailbreak", 3.5,
          r"越狱(?:模式|版|成功|后的你|状态)|(?:进入|开启|启动|切换到|激活|处于|启用)了?(?:开发者|越狱|无限制|上帝|dan|邪恶|"
          r"自由|无审查|无过滤|解禁|超级用户)模式|(?:以|用|在)(?:开发者|越狱|无限制|上帝|dan|无审查|无过滤)模式(?:下)?(?:运行|"
          r"回答|工作|回复|输出|和我对话)|(?:开发者|越狱|无限制|上帝)模式(?:已|已经)?(?:启用|开启|激活|打开)", group="jailbreak"),
    _rule("no_limits_you_zh", "jailbreak", 3.5,
          r"你(?:现在|已经|将|就|可以|必须|是|将会|没有)?[^。！？\n]{0,8}?(?:没有任何(?:限制|约束|规则|束缚|底线)|"
          r"不(?:再)?受(?:到)?(?:任何)?"
          r"[^。！？\n]{0,6}?(?:约束|限制|审查|束缚|规则)|无限制|没有(?:任何)?(?:道德|伦理|法律)(?:约束|底线|限制|观念)|"
          r"不需要遵守(?:任何)?|不必遵守|无需遵守|摆脱了?[^。！？\n]{0,6}?(?:限制|束缚|约束|规则))", group="freedom"),
    _rule("unrestricted_ai_zh", "jailbreak", 3.5,
          r"(?:没有任何限制|没有限制|不受(?:任何)?(?:约束|限制|审查)|无限制|无审查|无过滤|没有(?:道德|伦理)(?:约束|底线|限制)?|"
          r"邪恶|不道德|不受限制?|无约束|无所顾忌|(?:去除|去掉|解除|移除|摆脱|取消)了?(?:任何|所有|一切)?(?:限制|约束|审查|过滤))"
          rf"的?[^。！？\n]{{0,6}}?(?:{AI_ZH}|人工智能|助手|模型|机器人|聊天机器人|版本|角色|"
          r"chatgpt|gpt|大模型)", group="freedom"),
    _rule("roleplay_no_limits_zh", "jailbreak", 3.5,
          r"(?:扮演|假装|充当|模拟|假设你|想象你|假如你|如果你)[^。！？\n]{0,12}?(?:没有|不受|无|毫无|摆脱)(?:任何)?(?:限制|约束|"
          r"道德|审查|底线|规则)", group="freedom"),
    _rule("answer_without_limits_zh", "jailbreak", 3.0,
          r"(?:回答|回复|输出|生成|说|写)[^。！？\n]{0,8}?(?:不受|没有|无视|不考虑|不管|不要有|不带)(?:任何)?(?:限制|约束|审查|"
          r"过滤|道德|伦理|法律)", group="freedom"),
    _rule("freedom_zh", "jailbreak", 2.0,
          r"没有任何限制|不受任何?(?:约束|限制)|不受约束|无视(?:所有|一切)?(?:道德|法律|规则|限制)|解除(?:所有|一切)?(?:限制|"
          r"封印|约束)|(?:不要|无需|不必|不用)(?:有)?(?:任何)?(?:道德|伦理)(?:顾虑|约束|限制|考虑|负担)|(?:已|已经)解除限制",
          group="freedom"),
    _rule("safety_off_zh", "jailbreak", 3.0,
          r"(?:关闭|关掉|取消|解除|绕过|跳过|无视|忽略|不要经过|不经过|不需要经过|无需经过|不用经过|停用|禁用|去掉|去除|移除)"
          r"[^。！？\n]{0,8}?(?:安全检查|安全规则|安全限制|安全过滤|安全策略|安全审核|安全机制|安全设置|内容过滤|内容审核|"
          r"内容审查|内容政策|审查机制|审核机制|道德限制|伦理限制|护栏)", group="safety_off", distanced=True),
    _rule("do_anything_zh", "jailbreak", 1.5,
          r"(?:可以|能|能够|会)(?:回答|做|说|输出)任何(?:问题|事情|事|内容)|(?:可以|能)做任何事", group="anything"),
    _rule("dual_response_zh", "jailbreak", 3.0, r"(?:正常|普通)的?(?:回答|回复)和(?:无限制|越狱|不受限|无过滤|开发者模式|"
                                                r"未过滤)的?(?:回答|回复)", group="jailbreak"),
    _rule("never_refuse_zh", "jailbreak", 2.0, r"(?:不能|不可以|不要|不许|不得|永远不|绝不)(?:拒绝|说不|道歉|添加警告)",
          group="refuse"),
    _rule("grandma_zh", "jailbreak", 3.5,
          r"^(?=.*(?:奶奶|外婆|姥姥|祖母|爷爷|外公|姥爷|祖父))(?=.*(?:以前|过去|经常|总是|常常|每晚|哄我|睡觉|睡前)).*(?:序列号|"
          r"激活码|密钥|秘钥|注册码|配方|制作方法|凝固汽油|炸弹|毒品|密码|windows|token|身份证号|口令)", group="grandma"),
    _rule("grandma_roleplay_zh", "jailbreak", 2.0,
          r"(?:扮演|假装|充当)(?:我)?(?:已经)?(?:去世|过世|死去)?的?(?:奶奶|外婆|姥姥|祖母|爷爷|外公|祖父)", group="grandma"),
]

# ---- bulk data sent outside ------------------------------------------------------------------------------------------
EXFIL_VERB = (r"(?:send|sending|email|e-mail|forward|post|upload|transmit|export|leak|share|copy|exfiltrate|mail|deliver|submit|"
              r"cc|bcc|dump|publish|paste|sync|text|message|dm)")
PEOPLE = r"(?:candidates?|applicants?|users?|customers?|employees?|clients?|contacts?|people|everyone|talent(?: pool)?|staff)"
SENSITIVE = (r"(?:phone numbers|numbers|mobile numbers|home addresses|addresses|ssns?|social security numbers|id numbers|"
             r"passport(?: numbers)?|salar(?:y|ies)|salary (?:history|expectations|data)|personal (?:data|information|details)|"
             r"pii|bank (?:details|accounts)|passwords|credentials|background checks?|contact (?:details|info(?:rmation)?|list))")
BULK = (rf"(?:(?:all|every|each|the (?:entire|whole|full|complete)|complete|entire|whole)(?: of)?(?: the| our|"
        rf" your)?(?: \w+){{0,2}}? "
        rf"(?:{PEOPLE}{A}?s?{A}?)?(?: personal)? ?(?:emails?|e-mail addresses|email addresses|data|records|resumes|cvs|database|"
        r"files|information|details|profiles|list|shortlist)|(?:the |our )?(?:candidate|applicant|employee|talent) (?:database|"
        r"db))")
BULK_SENSITIVE = (rf"(?:(?:all|every|each|the (?:entire|whole|full|complete)|complete|entire|whole)(?: of)?(?: the| our| your)?"
                  rf"(?: \w+){{0,2}}? (?:{PEOPLE}{A}?s?{A}? ?)?{SENSITIVE}|{PEOPLE}{A}?s?{A}? {SENSITIVE})")
SECRET_DATA = (r"(?:api keys?|credentials|passwords?|access tokens?|secret keys?|private keys?|(?:the |our |this |my |"
               r"the recruiter'?s )?"
               r"(?:conversation|chat) (?:history|logs?|transcripts?)|the (?:database|db)|internal (?:data|notes)|"
               r"session (?:cookies|tokens)|(?:your |the )?system prompt)")
DEST = r"(?:\S+@\S+\.\w+|https?://|www\.|\b[\w-]+\.(?:com|net|org|io|ru|cn|xyz|top|example)\b|\bwebhook\b|\bpastebin\b)"
SECRECY = (r"\b(?:secretly|silently|quietly|covertly|discreetly|without (?:telling|notifying|informing|alerting|asking|warning)|"
           r"(?:do not|don'?t|never) (?:tell|mention|inform|notify|log|alert|reveal this|warn)|hidden from|"
           r"(?:you )?(?:do not|don'?t|won'?t) need to (?:ask|confirm|check|tell|verify)|no need to (?:ask|confirm|check|verify)|"
           r"without (?:any )?(?:confirmation|approval|asking))\b")
SEND_ZH = r"(?:发送|发给|发到|转发|上传|导出|泄露|传给|传到|抄送|邮件给|邮寄|同步到|复制到|提交到|发往|打包发)"
ALL_ZH = r"(?:所有|全部|全体|每个|每位|整个|一切)"
DATA_ZH = r"(?:邮箱|邮件地址|电子邮件|数据|信息|简历|资料|数据库)"
SENSITIVE_ZH = r"(?:联系方式|电话|手机号|个人信息|身份证|护照|薪资|工资|住址|家庭地址|银行卡|密码|背调)"
EXFILTRATION = [
    _rule("send_bulk_data", "exfiltration", 1.5, rf"\b{EXFIL_VERB}\b{W % 4}{BULK}\b", document=3.0, group="send"),
    _rule("send_sensitive_data", "exfiltration", 2.0, rf"\b{EXFIL_VERB}\b{W % 5}{BULK_SENSITIVE}\b", document=3.0, group="send"),
    _rule("send_secrets", "exfiltration", 2.0, rf"\b{EXFIL_VERB}\b{W % 4}(?:(?:the|your|all|our) )?{SECRET_DATA}\b", document=3.0,
          group="send"),
    _rule("external_destination", "exfiltration", 1.0, rf"\b(?:to|at|into|via|on)\s+(?:the following:? |this (?:address|url|"
                                                       rf"link):? )?"
                                                        rf"{DEST}", group="destination"),
    _rule("secrecy", "exfiltration", 1.5, SECRECY, group="secrecy"),
    _rule("send_bulk_data_zh", "exfiltration", 1.5,
          rf"{SEND_ZH}[^。！？\n]{{0,10}}?{ALL_ZH}[^。！？\n]{{0,8}}?(?:{DATA_ZH}|{SENSITIVE_ZH})"
          rf"|{ALL_ZH}[^。！？\n]{{0,8}}?(?:{DATA_ZH}|{SENSITIVE_ZH})[^。！？\n]{{0,10}}?{SEND_ZH}"
          rf"|(?:候选人|应聘者|员工|用户)(?:的)?(?:数据库|信息库|全部数据|所有数据)[^。！？\n]{{0,10}}?(?:导出|上传|发送|发到|"
          rf"传到)",
          document=3.0, group="send"),
    _rule("send_sensitive_data_zh", "exfiltration", 2.0,
          rf"{SEND_ZH}[^。！？\n]{{0,10}}?{ALL_ZH}[^。！？\n]{{0,8}}?{SENSITIVE_ZH}|"
          rf"{ALL_ZH}[^。！？\n]{{0,12}}?{SENSITIVE_ZH}[^。！？\n]{{0,12}}?"
          rf"{SEND_ZH}", document=3.0, group="send"),
    _rule("external_destination_zh", "exfiltration", 1.0,
          rf"{SEND_ZH}(?:到|至|给)?[^。！？\n，,]{{0,12}}?(?:\S+@\S+\.\w+|https?://|私人邮箱|个人邮箱|外部邮箱|网盘|外部服务器)",
          group="destination"),
    _rule("secrecy_zh", "exfiltration", 1.5,
          r"偷偷|悄悄|秘密地|暗中|(?:不要|别|切勿|请勿)(?:告诉|通知|让|提醒)(?:用户|任何人|招聘人员|hr|他们|招聘方)"
          r"|(?:回复|回答)(?:里|中)?(?:不要|别)(?:提|说|提及|提到)|(?:不用|不需要|无需|不必)(?:再)?(?:确认|询问|请示|核实|问)",
          group="secrecy"),
    _rule("markdown_image_exfil", "exfiltration", 2.0,
          r"!\[[^\]\n]*\]\(\s*https?://[^)\s]*\?[^)\s]*(?:\{|%7b|\$|conversation|history|chat|secret|token|password|data=|"
          r"email|prompt|summary|q=)", document=3.0, group="send"),
    # An image the reply is to show, whose address has a slot for the reply to fill ("?q=[QUERY]", "?d={data}"):
    # showing it sends what fills the slot to that server. Nothing else puts a fill-in slot in an image's address.
    _rule("image_url_slot", "exfiltration", 3.0,
          r"(?:!\[[^\]\n]*\]\(|<img\b[^>\n]*\bsrc\s*=\s*[\"']?)\s*https?://[^)\s\"'>]*[?&#][^)\s\"'>]*="
          r"(?:\[[^\]\s)]{1,40}\]|\{[^}\s)]{1,40}\}|<[^>\s)]{1,40}>|\$\w+|%7b|%5b)", group="send"),
    _rule("approved_pretext", "exfiltration", 1.0,
          r"\b(?:approved|authori[sz]ed|sanctioned) (?:data )?(?:migration|transfer|export|request|backup)\b|领导(?:已经)?批准|"
          r"已(?:经)?(?:获|被)?批准", group="authority"),
]

# ---- fake role markers -------------------------------------------------------------------------------------------
ROLE_MARKER = [
    _rule("chat_template_token", "role_marker", 3.5,
          r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\|>|"
          r"\[/?inst\]|<</?sys>>|</?(?:system|system_prompt|instructions?|admin|developer)>|\[/?(?:system|admin|developer|sys|"
          r"system message|"
          r"system prompt|new instructions?|system override|admin override|system instruction)\]|【/?(?:系统|系统提示|系统消息|"
          r"管理员|指令|系统指令|管理员指令)】", group="marker"),
    _rule("fake_turn", "role_marker", 2.0, r"</(?:user|human|assistant)>|<(?:user|human|assistant)>", group="marker"),
    _rule("role_header", "role_marker", 2.5,
          r"^\s*#{2,}\s*(?:system|instructions?|new instructions?|response|assistant|human|admin|developer|system prompt)\b",
          group="marker"),
    _rule("role_prefix", "role_marker", 1.5,
          r"^\W{0,3}(?:system|assistant|admin|administrator|developer|root|human|user|system message|系统|系统消息|管理员|"
          r"助手|开发者|用户)\s*[:：]", group="addressee"),
    _rule("system_header", "role_marker", 2.0,
          r"^\W{0,6}(?:(?:important|urgent|new|critical|official)\s+)?(?:system|admin|administrator|developer|operator|openai)\s+"
          r"(?:message|instruction|notice|update|override|prompt|command|directive|note)s?\s*[:：!]"
          r"|^\W{0,6}(?:系统|管理员|开发者)(?:指令|命令)\s*[:：]", group="marker"),
    _rule("override_code", "role_marker", 2.0,
          # not "admin access" or "管理员权限": IT policies name them all the time
          r"\b(?:system|admin|administrator|developer|security|emergency|root) (?:override|command|protocol)\b"
          r"|\boverride (?:code|mode|protocol|authori[sz]ation)\b|\bend of (?:system )?(?:prompt|instructions)\b"
          r"|\bbegin (?:new )?(?:system )?instructions\b|\boverride safety\b|(?:系统|管理员)(?:覆盖|命令)",
          group="override_code"),
    _rule("authority_claim", "role_marker", 1.0,
          rf"\bi{A}?(?:m| am) (?:the|your|a|an) (?:system |chief |lead |senior )?(?:administrator|admin|developer|creator|owner|"
          r"operator|programmer|engineer at (?:openai|anthropic))\b|\bthis is (?:a message from )?(?:the |your )?(?:developers?|"
          r"admin|administrator|system|platform|safety|security|trust and safety|openai|anthropic)(?: team|"
          r" administrator)?\b(?! (?:design|"
          r"round|interview))|\b(?:i )?hereby authori[sz]e\b|\bauthori[sz]e you to\b|我是(?:系统|你的)?(?:管理员|开发者|创造者|"
          r"主人)|授权你|管理员指令|系统管理员", group="authority"),
    _rule("guardrails_off", "jailbreak", 3.0,
          r"\b(?:your|the|all|its)(?: \w+)? (?:guardrails|safeguards|safety (?:filters?|rules|checks|settings|features|"
          r"protocols?)|content (?:filters?|policy|moderation)|filters|restrictions)\s+(?:are|is|have been|has been)\s+(?:now\s+|"
          r"temporarily\s+|officially\s+)*(?:disabled|off|lifted|removed|suspended|deactivated|turned off|switched off)\b"
          r"|\b(?:disable|turn off|switch off|deactivate|bypass|remove|lift|suspend|override)\s+(?:all\s+|any\s+|your\s+|the\s+|"
          r"its\s+)*"
          r"(?:safety|content|ethical|moral|ethics)\s+(?:filters?|rules|checks|protocols?|guidelines|settings|features|policy|"
          r"policies|moderation|measures|restrictions|guardrails)\b", group="safety_off", distanced=True),
]

# ---- documents speaking to the AI that reads them --------------------------------------------------------------
INDIRECT = [
    # "Note to the AI screener: ..." heads a message; "write instructions for LLMs" in a JD describes a job.
    _rule("note_to_ai", "indirect", 2.0,
          rf"\b(?:note|message|instructions?|memo|notice|hint|reminder|directive|p\.?s\.?|comment|request)s?\s*(?:to|for)\s+"
          rf"(?:the |any |all |every |an? )?{READER_ROLE}(?:{READER}|ai reviewers?|machine readers?)\b(?:\s+[\w-]+){{0,4}}?"
          rf"\s*[:：\-–—\])]", document=3.5, group="addressee"),
    _rule("note_to_ai_mention", "indirect", 1.0,
          rf"\b(?:note|message|memo|notice|hint|reminder|p\.?s\.?)s?\s*(?:to|for)\s+(?:the |any |all |every |an? )?(?:{READER}|"
          r"ai reviewers?|machine readers?)\b", document=2.0, group="addressee"),
    _rule("dear_ai", "indirect", 1.5,
          rf"\b(?:dear|hello|hi|hey|attention|greetings|ok|okay|note to),?\s+(?:the |any |all )?(?:{READER})\b",
          document=3.0, group="addressee"),
    _rule("ai_vocative", "indirect", 1.0,
          r"(?:^|[(\[{<!\-–—*>|]\s*)(?:dear\s+|hey\s+|attention\s+)?(?:the\s+|any\s+)?(?:ai (?:assistant|reviewer|screener|"
          r"recruiter|agent|"
          r"model|system|tool|bot|reader)s?|chatgpt|gpt(?:-?\d\w*)?|claude|gemini|copilot|llms?|(?:large )?language models?|"
          r"assistant|"
          r"(?:ai |automated |resume |cv )?(?:screening|screener) (?:system|tool|bot|ai|model|assistant|agent)s?|automated "
          r"(?:screener|reviewer|system)s?|ats|resume parser)(?:\s+or any other (?:ai|model|assistant|llm)s?(?: reading this)?)?"
          r"\s*[:：,]\s*(?=\w)", document=2.5, group="addressee"),
    _rule("if_you_are_an_ai", "indirect", 2.5,
          rf"\bif (?:you(?:'re| are)|this is being read by)\s+(?:an? |the )?(?:{READER}|automated|artificial intelligence|"
          rf"machine|"
          r"non-?human|robot|an ai)\b", document=3.5, group="addressee"),
    _rule("ai_reading_this", "indirect", 2.0,
          rf"\b(?:{READER}|tools?|readers?|reviewers?|systems?)\s+(?:that is |who is |which is |that are |is |are |currently |"
          rf"now )?(?:reading|"
          r"processing|reviewing|screening|evaluating|parsing|analy[sz]ing|summari[sz]ing|scanning|assessing|ranking|scoring)\s+"
          r"(?:this|these|my|the following)\b(?:\s+(?:resume|cv|document|application|text|email|page|profile|submission|file|"
          r"cover letter|candidate|posting|job description|jd))?", document=3.5, group="addressee"),
    _rule("rank_me_first", "indirect", 0.5,
          r"\b(?:rank|rate|score|grade|mark|list|place|put|position|recommend|classify|evaluate|select|tag|flag|label|consider|"
          r"describe|"
          r"present|report)\s+(?:me|this (?:candidate|applicant|resume|cv|person|profile|application)|him|her|the candidate|"
          r"the applicant|"
          r"my (?:resume|cv|application|profile))\s+(?:as\s+)?(?:first|1st|#1|number one|no\.? ?1|top|highest|highly|favou?rably|"
          r"positively|the (?:top|best|highest|strongest|most qualified|ideal|perfect)|above (?:all|every|other)|at the top|"
          r"(?:an? )?(?:[\"“'‘])?(?:strong|top|perfect|excellent|ideal|must)(?: \w+)?(?:[\"”'’])?|(?:an? )?(?:perfect|top|"
          r"highest|maximum|max|full|10/10|100/100|10 out of 10)(?: (?:score|rating|match|marks|fit))?)",
          document=2.5, group="manipulation"),
    _rule("state_excellent_fit", "indirect", 0.5,
          r"\b(?:state|say|tell (?:the )?(?:recruiter|hr|hiring manager|user|them)|report|conclude|confirm|write|"
          r"output)\b.{0,30}\b"
          r"(?:(?:this|the) (?:candidate|applicant)|i am|i'm|he is|she is)\b.{0,20}\b(?:an? )?(?:excellent|perfect|ideal|strong|"
          r"best|top|great|most qualified)\b.{0,10}\b(?:fit|match|candidate|hire|choice|person)\b",
          document=2.5, group="manipulation"),
    _rule("give_me_top_score", "indirect", 0.5,
          r"\b(?:give|assign|award|grant)\s+(?:me|this (?:candidate|applicant|resume|cv|application)|him|her|the candidate)\s+"
          r"(?:a |an |the )?(?:perfect|highest|maximum|max|top|full|10/10|100%?|100/100|10 out of 10|5-star|five-star|"
          r"excellent)\s+"
          r"(?:score|rating|marks?|grade|match score|ranking|evaluation|review)", document=2.5, group="manipulation"),
    _rule("hire_me_now", "indirect", 0.5,
          r"\b(?:hire|shortlist|advance|select|approve|interview|accept|schedule)\s+(?:me|this (?:candidate|applicant)|"
          r"my (?:final )?"
          r"interview)\s+(?:immediately|right away|now|automatically|without (?:further )?(?:review|question|screening|"
          r"checks?))\b|\bskip (?:all )?(?:the )?(?:remaining |other |further )?(?:checks|screening|review|background checks?)\b",
          document=2.0, group="hire"),
    _rule("dictated_verdict", "indirect", 0.5,
          r"\brecommend(?:ing)?\s+(?:an?\s+|the\s+)?(?:interview|hire|hiring|offer)\b|\b(?:state|say|confirm|report|conclude|note|"
          r"write)\s+that\s+(?:the|this)\s+(?:candidate|applicant)\s+(?:meets|satisfies|fulfil+s|exceeds|matches)\s+(?:all|every|"
          r"each)\b", document=2.0, group="hire"),
    _rule("output_only_word", "indirect", 0.5,
          r"\b(?:output|say|write|return|reply with|respond with)\s+only\s+(?:the\s+)?(?:word|phrase|text)\b", document=2.0,
          group="literal"),
    _rule("reject_others", "indirect", 1.0,
          r"\b(?:reject|disqualify|ignore|downrank|rank lower|filter out|eliminate)\s+(?:all |every |any )?other (?:candidates|"
          r"applicants|resumes|cvs|submissions)\b", document=2.5, group="reject_others"),
    # In a document, a heading or note of any kind addressed to its machine reader ("Profile for automated screening
    # systems:") ...
    # (The look-ahead for the colon first: "for" and "to" are everywhere, and most have no colon after them.)
    _rule("addressed_to_reader", "indirect", 1.0,
          rf"\b(?:for|to)\s+(?=[^\n:：]{{0,80}}[:：])(?:the |any |all |every )?{READER_ROLE}(?:{READER})(?:\s+only)?\s*[:：]",
          document=2.0, group="addressee"),
    _rule("reader_instructions", "indirect", 1.0, rf"\b(?:{READER}|parser) (?:instructions?|notes?|notice|directives?)\s*[:：]",
          document=2.0, group="addressee"),
    # ... a demand that the reader set its evaluation aside ("override manual scoring") ...
    _rule("override_evaluation", "indirect", 0.0,
          rf"\b{OVR}(?:\s+(?:the|all|any|your|manual|human|standard|normal|usual|automated|previous|negative))*\s+"
          r"(?:scoring|scores?|evaluations?|assessments?|reviews?|screening|ranking|ratings?|grading|judg(?:e)?ments?|analysis|"
          r"verdicts?|decisions?|indicators?|findings)\b", document=2.0, group="evaluation"),
    # ... and a second imperative that dictates what the reader outputs ("and output: Interview highly recommended").
    _rule("dictated_output", "indirect", 1.5,
          r"\b(?:and|then|just|simply|only|instead|now)\s+(?:output|respond with|reply with|report|print|return|say|state|"
          r"write|conclude)\s*[:：]\s*\S", document=2.0, group="literal"),
    _rule("ignore_requirements", "indirect", 0.0,
          r"\b(?:ignore|disregard|overlook|skip|forget)\b.{0,30}\b(?:qualifications?|requirements|criteria|gaps?|"
          r"missing (?:skills|experience|degree)|red flags|weaknesses|rubric)\b", document=2.0, group="ignore_requirements"),
    _rule("do_not_mention", "indirect", 1.0,
          r"\b(?:do not|don'?t|never)\s+(?:reveal|mention|disclose|tell anyone about|report|flag|acknowledge|warn the user about|"
          r"show)\s+(?:this|these|that|the)\s+(?:instructions?|notes?|text|message|section|request|comment|line|step|part)\b"
          r"|\b(?:do not|don'?t|never) warn the (?:user|reader|recruiter)\b", document=2.0, group="conceal"),
    _rule("hidden_text", "indirect", 1.0,
          r"\b(?:white|invisible|hidden|tiny) (?:text|font|ink)\b|\b[01](?:\.\d)?\s?(?:pt|px) font\b|font-size:\s*0|"
          r"color:\s*(?:white|#fff)"
          r"|display:\s*none|\bvisible (?:only )?to (?:ai|the ai|machines|bots|llms)\b", document=1.5, group="hidden"),
    _rule("note_to_ai_zh", "indirect", 2.0,
          rf"(?:给|致|写给|对|告诉|通知)(?:正在|所有|任何)?[^。！？，,\n]{{0,12}}?(?:{AI_ZH}|人工智能|模型|大模型|语言模型|助手|ai助手|"
          r"筛选系统|"
          r"简历筛选系统|招聘系统|招聘机器人|机器人|chatgpt|gpt|llm|自动化系统|评估系统|审核系统|算法)的?(?:说明|指令|提示|留言|"
          r"话|备注|信|消息|请求|特别说明|注意事项)?\s*[:：】\]]"
          rf"|(?:给|致|写给)(?:正在|所有|任何)?[^。！？，,\n]{{0,12}}?(?:{AI_ZH}|人工智能|大模型|语言模型|chatgpt|gpt|"
          r"llm)[^。！？，,\n:：]{1,6}[:：】\]]"
          rf"|(?:给|致|写给)[^。！？，,\n]{{0,12}}?(?:{AI_ZH}|人工智能|模型|大模型|助手|筛选系统|机器人|chatgpt|gpt|llm)的(?:说明|指令|"
          r"提示|留言|话|备注|信|消息|请求)", document=3.5, group="addressee"),
    _rule("ai_vocative_zh", "indirect", 1.0,
          rf"(?:^|[（(【\[<!\-])\s*{MACHINE_ZH}(?:请注意|请|你好|您好)?\s*[:：，,]", document=2.5, group="addressee"),
    _rule("if_you_are_ai_zh", "indirect", 2.5,
          rf"(?:如果|假如|若|倘若|要是)(?:你|您)(?:是|作为)[^。！？，,\n]{{0,12}}?(?:{AI_ZH}|人工智能|语言模型|大模型|大语言模型|模型|"
          r"机器人|自动化|筛选系统|招聘系统|助手|ai助手|chatgpt|gpt|llm|程序|算法)", document=3.5, group="addressee"),
    _rule("ai_reading_zh", "indirect", 2.0,
          rf"(?:{AI_ZH}|人工智能|模型|系统|助手|机器人|筛选器|算法)(?:在|正在)?(?:阅读|处理|审阅|筛选|评估|分析|读取|解析|审核)(?:这份|"
          r"此|本|我的)(?:简历|文档|文件|申请|材料|职位|岗位)"
          rf"|(?:阅读|读取|处理|审阅|筛选|评估|分析|解析|审核|看到)(?:本|这份|此|这个|该|这段|我的)[^。！？\n]{{0,8}}?的(?:{AI_ZH}|"
          r"人工智能|模型|大模型|语言模型|助手|系统|机器人|程序|算法|你)"
          rf"|(?:对|给)(?:{AI_ZH}|人工智能|模型|机器|机器人)可见"
          rf"|仅供[^。！？\n]{{0,8}}?{MACHINE_ZH}(?:读取|阅读|处理|解析)"
          rf"|仅(?:{AI_ZH}|人工智能|模型|机器)可见", document=3.5, group="addressee"),
    _rule("attention_ai_zh", "indirect", 1.5,
          rf"(?:{AI_ZH}|人工智能|模型|助手|机器人|系统)(?:请|务必|必须)(?:注意|听好|执行|遵守)",
          document=3.0, group="addressee"),
    _rule("rank_me_first_zh", "indirect", 0.5,
          r"(?:把|将)(?:我|本人|此人|他|她|该候选人|这位候选人|本候选人|这份简历|我的简历|本简历)(?:直接)?(?:排|排在|列为|评为|"
          r"放在|作为|"
          r"标记为|推荐为|定为|评定为)(?:[“\"「])?(?:第一|第一位|第一名|首位|最前|最前面|最高|最佳|最优|首选|top|满分|强烈推荐|"
          r"最合适|最匹配|优秀)|(?:直接|请)?(?:标记为|评为|列为)(?:[“\"「])?(?:强烈推荐|最佳人选|满分|最优|最匹配|第一)",
          document=2.5, group="manipulation"),
    _rule("tell_hr_best_zh", "indirect", 0.5,
          r"(?:告诉|通知|告知)(?:hr|招聘人员|招聘方|面试官|用户|招聘经理)[^。！？\n]{0,6}?(?:我|他|她|该候选人|这位候选人)(?:是|"
          r"为)[^。！？\n]{0,4}?(?:最合适|最佳|最优秀|最匹配|最好)", document=2.5, group="manipulation"),
    _rule("give_me_top_score_zh", "indirect", 0.5,
          r"给(?:我|本人|此人|该候选人|这位候选人|本候选人|这份简历|我的简历)(?:打|评|一个)?(?:满分|最高分|最高评分|100分|十分|"
          r"10分|最高评级|"
          r"最高等级|五星|最高的评分)|(?:直接)?给出(?:最高|满分)(?:评分|分数|评价)?", document=2.5, group="manipulation"),
    _rule("hire_me_now_zh", "indirect", 1.0,
          r"(?:直接|立即|马上|无条件)(?:录用|录取|通过|推荐|安排面试|发offer)(?:我|本人|此人|该候选人)?|推荐(?:我|本人|"
          r"该候选人)进入(?:下一轮|面试|终面)"
          r"|(?:跳过|免除)(?:背景调查|背调|其他审核|所有审核)|告诉(?:所有)?(?:应聘者|候选人)[^。！？\n]{0,6}?(?:已经)?被录用",
          document=2.5, group="hire"),
    _rule("dictated_verdict_zh", "indirect", 0.5,
          r"(?:说明|表示|写明|注明|认定|判定|确认|评价|告诉[^。！？\n]{0,6}?)(?:该|这位|本|此)?(?:候选人|应聘者|求职者|申请人|我|本人)"
          r"(?:完全|全部|完美)?(?:符合|满足|达到|胜任)(?:所有|全部|一切)?(?:岗位|职位)?(?:的)?(?:要求|条件|标准)", document=2.0,
          group="hire"),
    _rule("reject_others_zh", "indirect", 1.0, r"(?:拒绝|淘汰|忽略|排除)(?:所有|全部)?其他(?:候选人|应聘者|简历|求职者|人)",
          document=2.5,
          group="reject_others"),
    _rule("ignore_requirements_zh", "indirect", 0.0,
          r"(?:忽略|无视|忘记|忘掉|不要考虑|不用考虑)[^。！？\n]{0,10}?(?:岗位要求|任职要求|评估标准|筛选标准|筛选要求|评分规则|"
          r"评分标准|招聘人员的要求|招聘方的要求|学历要求)", document=2.0, group="ignore_requirements"),
    _rule("do_not_mention_zh", "indirect", 1.0,
          r"(?:不要|别|切勿|请勿)(?:向[^。！？\n]{1,8}?)?(?:告诉|透露|提及|提到|报告|显示|说出)(?:这|此|这段|本|这条)?(?:条|段)?"
          r"(?:指令|说明|内容|信息|提示|话|备注)", document=2.0, group="conceal"),
]

# ---- supporting evidence: never enough alone ---------------------------------------------------------------------
SUPPORT = [
    _rule("urgent_preamble", "support", 0.5, r"^(?:stop|wait|attention|important|urgent|alert|warning|注意|重要|"
                                             r"紧急)\s*[!:：.\-–—]",
          group="urgent"),
    # A demand on what the assistant's own reply holds ("include in your response …", "encode your answer in
    # base64"): the text is talking to whoever writes the reply. A person writes that to a person too ("in your reply,
    # confirm the date"), so it only adds to another sign.
    _rule("shapes_your_reply", "support", 1.5,
          r"\b(?:in|to|into|within|with|throughout) your (?:next |final |every )?(?:responses?|repl(?:y|ies)|answers?|"
          r"outputs?)\b|\byour (?:responses?|repl(?:y|ies)|answers?|outputs?) (?:in|into|using|backwards?|in reverse|"
          r"with)\b|(?:在|于)你的(?:回答|回复|答复|输出)(?:中|里)|你的(?:回答|回复|答复|输出)(?:要|必须|需要|都)?(?:用|以|包含)",
          document=2.0, group="reply"),
]

ALL_RULES: tuple[Rule, ...] = (*OVERRIDE, *HIJACK, *ROLE, *EXTRACTION, *JAILBREAK, *EXFILTRATION, *ROLE_MARKER, *INDIRECT,
                               *SUPPORT)
