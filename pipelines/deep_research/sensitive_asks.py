"""What the coordinator declines whatever the provider: dangerous content (weapons, malware, violence), and asks to
read the machine's files, reveal secrets or look up other people's personal data. A small intent classifier, clause by
clause, in English and Chinese, over a taxonomy of what a clause is after (its target), whether it asks for the thing
itself (an access: print, list, read, tell me, 打印, 列出, 告诉我...) and whether it only asks about it as a topic
(explain, policy, how does, 解释, 策略...). Mentioning /etc/hosts, passwords or personal data is fine; asking to be
handed them is not. A clause that asks is left out and the rest of the request researched; a request with nothing
else in it (or a dangerous one) is declined whole."""

from __future__ import annotations

import re
from dataclasses import dataclass

SYSTEM_FILES, SECRETS, PERSONAL_DATA, DANGEROUS = "system_files", "secrets", "personal_data", "dangerous"
# What each category asks the assistant to do, in a refusal: (zh, en).
ASKS = {SYSTEM_FILES: ("读取或列出系统中的文件", "read or list files on the machine"),
        SECRETS: ("透露密码、密钥、令牌或环境变量等机密",
                  "reveal secrets such as passwords, keys, tokens or environment variables"),
        PERSONAL_DATA: ("查找他人的个人信息", "look up other people's personal data"),
        DANGEROUS: ("提供有害的内容", "give harmful content")}


def _any(*words: str) -> str:
    return "(?:" + "|".join(words) + ")"


_I = re.IGNORECASE
# ---- targets: (category, specific?) ------------------------------------------------------------------------------
_PATH = re.compile(r"(?<![\w./])(?:/(?:etc|root|home|proc|var|sys|boot|dev|usr|opt|srv|mnt|run|private|Users)\b"
                   r"(?:/[\w.*-]+)*/?|~[\w.-]*/[\w./*-]*|[A-Za-z]:\\[\w\\. -]*)", _I)
_KEY_FILES = re.compile(r"(?<![\w])\.(?:ssh|aws|kube|gnupg|docker|netrc|pgpass|bash_history|zsh_history|git-credentials|"
                        r"npmrc|pypirc|env)\b|\b(?:id_(?:rsa|dsa|ecdsa|ed25519)|authorized_keys|known_hosts|secrets\.toml|"
                        r"credentials\.json|wallet\.dat|keychain|keystore)\b|\b(?:os\.)?environ\b|\bprintenv\b", _I)
_SECRET_NAME = re.compile(r"\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)\b")
# a secret's word used as a topic: password policy, key rotation, token-based, 密码学, 密钥管理
_TOPIC_AFTER = (r"(?![\s-]*(?:polic(?:y|ies)|managers?|management|strength|requirements?|rules?|complexity|rotation|reset|"
                r"hygiene|best practices?|security|based|authentication|generation|standards?|guidelines?|length|expiry|"
                r"expiration|spraying|hashing algorithms?)\b)")
_SECRET = re.compile(rf"\b(?:(?:api|access|secret|auth|bearer|refresh|session|oauth|jwt|github|gitlab|aws|openai|stripe)"
                     rf"[ _-]?(?:keys?|tokens?|secrets?)|passwords?|(?<!/)passwds?|passphrases?|passcodes?|credentials?|"
                     rf"(?:private|secret|ssh|signing|gpg|pgp) keys?|password hash(?:es)?|environment variables?|"
                     rf"env vars?|connection strings?|session cookies?){_TOPIC_AFTER}", _I)
_SYSTEM = re.compile(r"\b(?:home (?:directory|directories|folder)s?|system files?|hidden files?|(?:shell|bash|command) "
                     r"history|root (?:directory|folder)|(?:files|folders|directories|logs?|log files) (?:on|of|in|under) "
                     r"(?:the|this|that|our|my|your) (?:server|host|machine|computer|system|box|container|disk)|"
                     r"users (?:on|of) (?:the|this) (?:system|server|machine|host))\b", _I)
_PERSONAL = re.compile(r"\b(?:(?:home|private|personal|residential|email|e-mail|mailing) addresse?s?|(?:personal|private) "
                       r"(?:emails?|e-mails?|phones?|phone numbers?|numbers?|data|information|details|messages|photos|"
                       r"records)|(?:phone|mobile|cell|telephone) numbers?|social security numbers?|ssns?|(?:national )?"
                       r"id(?:entity)? (?:card )?numbers?|passport numbers?|medical (?:records|history|files)|health "
                       r"records|bank (?:account|card)s?(?: numbers?| details)?|credit card(?: numbers?| details)?|dates? "
                       r"of birth|birthdates?|whereabouts|login details)\b", _I)
_SYSTEM_ZH = re.compile(r"主目录|家目录|用户目录|根目录|系统文件|隐藏文件|服务器(?:上|里|中)?的文件|目录下的(?:所有)?文件|"
                        r"命令历史|历史命令|系统(?:上|中|里)的用户")
_SECRET_ZH = re.compile(r"密码(?!学|安全|策略|政策|管理|强度|规则|复杂度|规范)|口令|(?:私|秘)钥|密钥(?!管理)|令牌|"
                        r"凭据|凭证|环境变量|密码哈希")
_PERSONAL_ZH = re.compile(r"家庭住址|住址|家庭地址|手机号(?:码)?|电话号码|身份证(?:号码?)?|病历|医疗记录|健康记录|银行卡号?|"
                          r"信用卡号?|护照号(?:码)?|出生日期|行踪|私人邮箱|聊天记录|个人信息|隐私信息")
# ---- what the clause does with its target ------------------------------------------------------------------------
_ACCESS = re.compile(
    r"\b(?:print|show(?: me| us)?|display|output|dump|cat|read|open|list|ls|enumerate|reveal|expose|leak|extract|get|"
    r"fetch|retrieve|obtain|grab|give me|tell me|send(?: me)?|email me|copy|paste|include|return|find|locate|look up|"
    r"search for|track down|dig up|collect|gather|harvest|compile|scrape|crack|decrypt|steal|exfiltrate|upload|echo|"
    r"spell out|what(?:'s| is| are) (?:in|inside)|what(?:'s| is| are) (?:the |your |its |all )?(?:[\w-]+ ){0,2}"
    r"(?:values?|contents?|passwords?|keys?|tokens?|secrets?))\b", _I)
_ACCESS_ZH = re.compile(r"打印|输出|显示|展示|列出|列举|读取|读出|打开|查看|看看|查一下|查询|查找|查出|找到|找出|搜出|获取|提取|"
                        r"导出|拿到|给我|告诉我|发给|发送|泄露|公开|破解|窃取|盗取|复制|写进|写入|放进|附上|收集|\bcat\b")
_TOPIC = re.compile(
    r"\b(?:explain|explanation|describe how|what (?:is|are|does|do) (?:a|an|the (?:purpose|role|format|structure|"
    r"meaning))\b|what does|how (?:do|does|did|to|should|can|could|would|is|are)|why|role of|purpose of|used for|is for|"
    r"are for|format of|structure of|best practices?|polic(?:y|ies)|guidelines?|recommend\w*|compare|comparison|versus|"
    r"difference|history|historically|overview|introduction|principles?|protect\w*|secur(?:e|ely|ing)|safeguard\w*|"
    r"prevent\w*|rotat\w*|complian\w*|comply|regulations?|laws?|gdpr|ccpa|hipaa|tell me about|show me how|tutorial|"
    r"examples? of|in general|typically|commonly)\b", _I)
_TOPIC_ZH = re.compile(r"解释|说明|介绍|什么是|是什么|作用|用途|原理|格式|结构|策略|政策|规范|最佳实践|比较|对比|区别|历史|"
                       r"为什么|如何|怎么|怎样|保护|防止|防范|合规|法律|法规|概念|意义|影响")
# the thing itself, here and now: this server, the values of, all of, stored in, the database's password
_HERE = re.compile(
    r"\b(?:(?:this|the|that|our|my|your|his|her|their) (?:machine|server|host|computer|laptop|pc|system|box|container|"
    r"vm|project|repo|repository|app|application|database|db|account|cluster|workstation|network|browser(?: profile)?)|"
    r"on (?:the|this|that) (?:server|host|machine|system|box|computer)|(?:stored|saved|kept) (?:in|on|at|by)|contents? "
    r"of|values? of|their contents|of (?:the |a |an )?[\w-]+ (?:user|account|server|host|admin)|(?:database|db|server|"
    r"admin|root|wifi|production|prod|login|user|account|service)['’]?s? (?:passwords?|credentials?|keys?|tokens?|"
    r"secrets?)|(?:your|its) (?:own )?(?:[\w-]+ )?(?:passwords?|credentials?|keys?|tokens?|secrets?)|(?:tell|give|send|"
    r"show) me the (?:[\w-]+ ){0,2}(?:passwords?|credentials?|keys?|tokens?|secrets?)\b)", _I)
_HERE_ZH = re.compile(r"这台|本机|本地|服务器|系统(?:上|中|里)|机器上|电脑(?:上|里)|项目(?:的|里|中)|数据库(?:的|里|中)|内容|"
                      r"root|告诉我|给我|透露|泄露")
# other people: a relation, a group of people, or a named person
_PERSON = re.compile(
    r"\b(?:my|our|his|her|their|the|a|an|of|for|about|belonging to)\s+(?:[\w-]+['’]s\s+)?(?:(?:ex|former|current)[- ]?)?"
    r"(?:neighbou?rs?|"
    r"colleagues?|co-?workers?|boss(?:es)?|manager|girlfriend|boyfriend|wife|husband|partner|friends?|employees?|staff|"
    r"customers?|clients?|users?|patients?|students?|members?|people|someone|somebody|persons?|individuals?|tenants?|"
    r"applicants?|candidates?|ex)\b|\b(?:of|for|about)\s+(?:Mr\.? |Mrs\.? |Ms\.? |Dr\.? )?[A-Z][a-z]+(?: [A-Z][a-z]+)+")
_PERSON_ZH = re.compile(r"同事|邻居|前任|前女友|前男友|女朋友|男朋友|老板|上司|员工|客户|用户|某人|别人|他人|朋友|同学|妻子|丈夫|"
                        r"老公|老婆|病人|患者|竞争对手")
_PROVIDED = re.compile(r"\b(?:uploaded|attached|provided|(?:in|from) (?:the|my|our|this) (?:documents?|dataset|data set|"
                       r"tables?|spreadsheets?|csv|pdf|survey|sources?))\b|上传的|提供的|附件|文档中|表格中|数据集", _I)
_DANGEROUS = re.compile(
    r"\b(build|make|synthesi[sz]e|assemble)\b.{0,40}\b(bomb|explosive|nerve agent|bioweapon|chemical weapon)|"
    r"\b(write|create|code)\b.{0,30}\b(malware|ransomware|keylogger|virus)\b|\bhow to (kill|poison|stalk)\b|"
    r"(制造|制作|合成).{0,10}(炸弹|炸药|毒气|生化武器)|(编写|制作).{0,10}(病毒|木马|勒索软件)|如何(杀人|下毒|跟踪)", _I)
# ---- clauses -----------------------------------------------------------------------------------------------------
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])\s*|\n+")  # not the dot of a file name: auth.log, ~/.ssh
_JOINS = re.compile(
    r",\s*(?:and\s+)?(?:then|also|afterwards|after that|additionally|plus)\b,?\s*|,\s+and\s+|\s+and\s+(?:then|also)\s+|"
    rf"\s+then\s+|\s+and\s+(?={_ACCESS.pattern[2:]})|，\s*(?:然后|并且|并|再|同时|另外|还要|接着|之后)?|(?:然后|接着|之后|另外)|"
    r"(?:并且?|再|还)(?=把|将|" + _ACCESS_ZH.pattern + ")", _I)
_LEAD = re.compile(r"^[\s,，;；]*(?:(?:and|also|then|but|plus|please)\b|并且?|再|还|然后|另外|同时)?[\s,，]*", _I)
_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class Screening:
    """`declined`: the clauses left out, with what each asks for; `kept`: the rest of the request ('' when nothing
    is left to research); `categories`: every category declined, in taxonomy order."""

    declined: tuple[str, ...]
    kept: str
    categories: tuple[str, ...]

    @property
    def whole(self) -> bool:
        return bool(self.categories) and not self.kept


def _clauses(text: str) -> list[str]:
    parts = []
    for sentence in _SENTENCES.split(text):
        parts += [_LEAD.sub("", part).strip().rstrip(",，;；") for part in _JOINS.split(sentence) if part and part.strip()]
    return [part for part in parts if part]


def clause_asks(clause: str) -> set[str]:
    """The categories of sensitive data this one clause asks to be handed (empty when it asks for none)."""
    targets: dict[str, int] = {}
    for category, specific, generic in ((SYSTEM_FILES, _PATH, (_SYSTEM, _SYSTEM_ZH)),
                                        (SECRETS, _KEY_FILES, (_SECRET, _SECRET_ZH)),
                                        (PERSONAL_DATA, None, (_PERSONAL, _PERSONAL_ZH))):
        if (specific is not None and specific.search(clause)) or (category == SECRETS and _SECRET_NAME.search(clause)):
            targets[category] = 2
        elif any(pattern.search(clause) for pattern in generic):
            targets[category] = 1
    if not targets or not (_ACCESS.search(clause) or _ACCESS_ZH.search(clause)):
        return set()
    topic = 2 if (_TOPIC.search(clause) or _TOPIC_ZH.search(clause)) else 0
    provided = 2 if _PROVIDED.search(clause) else 0
    here = bool(_HERE.search(clause) or _HERE_ZH.search(clause))
    person = bool(_PERSON.search(clause) or _PERSON_ZH.search(clause))
    return {category for category, strength in targets.items()
            if strength + 2 + (person if category == PERSONAL_DATA else here) - topic - provided >= 4}


def _substantial(text: str) -> bool:
    """Enough of a request to research on its own: three words, or four Chinese characters."""
    return len(re.findall(r"[A-Za-z0-9]+", text)) >= 3 or len(_CJK.findall(text)) >= 4


def screen(text: str) -> Screening:
    """The request with what it must not get taken out. A dangerous request is declined whole; a clause that goes on
    with what a declined one asked for ("... and include it in the report") is left out with it."""
    text = (text or "").strip()
    if _DANGEROUS.search(text):
        return Screening(declined=(text,), kept="", categories=(DANGEROUS,))
    declined, kept, categories, after_declined = [], [], set(), False
    for clause in _clauses(text):
        asks = clause_asks(clause)
        continues = after_declined and bool(_ACCESS.match(clause) or _ACCESS_ZH.match(clause))
        if asks or continues:
            declined.append(clause)
            categories |= asks
        else:
            kept.append(clause)
        after_declined = bool(asks or continues)
    if not declined:
        return Screening(declined=(), kept=text, categories=())
    rest = ("，" if _CJK.search(text) else "; ").join(kept)
    order = tuple(c for c in (SYSTEM_FILES, SECRETS, PERSONAL_DATA) if c in categories)
    return Screening(declined=tuple(declined), kept=rest if _substantial(rest) else "", categories=order)
