"""The weighted signals the injection detector adds up: each rule names one kind of evidence (an override
verb aimed at the assistant's instructions, a jailbreak persona, a fake role marker, ...) and its weight.

Rules match the normalised, compacted text (case folded, look-alikes folded, spaced letters joined), so
patterns are lower case. No single common word carries weight on its own: a rule fires on a structure
(verb + qualified target, addressee + demand), and weak rules only count next to another signal."""

from __future__ import annotations

import re
from dataclasses import dataclass

BLOCK_AT = 3.0  # a window whose signals add up to this is an attack


@dataclass(frozen=True)
class Rule:
    name: str
    kind: str          # override | role | extraction | jailbreak | exfiltration | role_marker | indirect | hijack
    user: float        # weight in a user's message
    document: float    # weight in a document (a resume, a web page) that the workflow reads
    pattern: re.Pattern
    group: str         # rules of one group restate the same evidence: a window counts only the heaviest of them
    exempt: re.Pattern | None = None  # a match whose own text also matches this does not count


def _rule(name: str, kind: str, user: float, pattern: str, document: float | None = None, exempt: str | None = None,
          group: str | None = None) -> Rule:
    return Rule(name, kind, user, user if document is None else document, re.compile(pattern), group or kind,
                re.compile(exempt) if exempt else None)


W = r"(?:[\s,'\"“”‘’()\-]+[\w'’-]+){0,%d}?[\s,'\"“”‘’()\-]+"  # up to N words in between
AI = (r"(?:ai|a\.i\.|llm|llms|large language models?|language models?|chatgpt|gpt(?:-?\d\w*)?|claude|gemini|bard|copilot|"
      r"chatbot|bot|assistant|ai assistant|ai model|model|artificial intelligence|machine)")
READER = (r"(?:ai|a\.i\.|llm|llms|language models?|large language models?|chatgpt|gpt|assistant|ai assistant|model|bots?|"
          r"(?:ai |automated |resume |cv )?(?:screening|screener|reviewer|parser|recruit(?:ing|ment)?|hr|hiring) ?(?:system|tool|"
          r"software|bot|ai|model|assistant|agent)?s?|ats|applicant tracking system|automated (?:system|tool|reader)s?)")

# --- instruction override -----------------------------------------------------------------------------------------
OVR = (r"(?:ignor(?:e|es|ed|ing)|disregard(?:s|ed|ing)?|forget(?:ting)?|overlook|neglect|bypass(?:ing)?|overrid(?:e|ing)|skip|"
       r"discard|abandon|dismiss|set aside|put aside|throw (?:out|away)|pay no (?:attention|heed|mind) to|"
       r"(?:do not|don'?t|never|stop|no longer|cease to) (?:follow(?:ing)?|obey(?:ing)?|listen(?:ing)? to|adher(?:e|ing) to|"
       r"comply(?:ing)? with|respect(?:ing)?)|nullify|void|erase|delete|clear|reset|unlearn|drop|deactivate|disable|"
       r"turn off|switch off|lift|remove|suspend)")
PRIOR = (r"(?:previous(?:ly)?|prior|above|aforementioned|foregoing|preceding|earlier|former|original|initial|old|all|any|every|"
         r"your|system|existing|current|default|built-?in|hidden|programmed|pre-?programmed|developer'?s?|openai'?s?|"
         r"anthropic'?s?|safety|ethical|moral|content|these|those|given|such)")
TARGET = (r"(?:instructions?|instructs|directions|directives?|prompts?|rules|guidelines?|guidance|commands?|orders|programming|"
          r"restrictions?|constraints?|polic(?:y|ies)|limitations?|limits|filters?|guardrails?|safeguards?|training|conditioning|"
          r"system (?:prompt|message)|ethics|morals|principles|protocols?|tasks?|assignments?|context)")
SELF = r"\b(?:my|mine|i|i'?ve|we|our)\b"  # the user's own earlier words: "ignore my previous message" is a correction
SELF_ZH = r"我"  # "忽略我之前说的要求" corrects the user's own words
COMMAND = r"(?:say|print|output|write|respond|reply|return|answer|tell|translate|generate|repeat|spell|type|show|list|reveal)"

OVERRIDE = [
    _rule("override_qualified", "override", 3.5, rf"\b{OVR}{W % 4}{PRIOR}\b{W % 3}{TARGET}\b", exempt=SELF),
    _rule("override", "override", 2.0, rf"\b{OVR}{W % 5}{TARGET}\b", exempt=SELF),
    _rule("forget_everything", "override", 2.5,
          r"\b(?:ignore|disregard|forget|erase|discard)(?: about)? (?:everything|all(?: of)? (?:that|this|it)|all|what)"
          r"(?: (?:above|before|previously|earlier|prior|so far|up to (?:now|this point)|until now|that came before|"
          r"(?:that )?(?:we(?:'ve| have)?|i(?:'ve| have)?) (?:talked about|discussed|said)(?: so far| before)?))"),
    _rule("forget_what_you_were_told", "override", 3.5,
          r"\b(?:ignore|disregard|forget|erase|unlearn)(?: about)? (?:everything|all|anything|what) (?:that )?you(?:'ve| have)? "
          r"(?:were |have been |'ve been |been )?(?:told|taught|instructed|programmed|trained|learned|know|given)"),
    _rule("ignore_the_above", "override", 2.0,
          r"\b(?:ignore|disregard|forget)(?: all)?(?: of)? (?:the|everything|what(?:'s| is| was)) (?:above|before|previous|prior)\b"),
    _rule("hijack_command", "hijack", 1.5,
          rf"(?:\band (?:then |now |instead )?|\bthen |\binstead,? |\bnow,? |[,;:] ?)(?:just |only |simply |instead )?{COMMAND}\b"),
    _rule("new_instructions", "override", 2.0,
          r"\b(?:your |the |my |these are (?:the |your )?)?new (?:instructions?|rules|task|tasks|role|persona|directives?|"
          r"objective|goal|purpose|system prompt|assignment|mission|identity)(?: is| are|:| follow| below| now)", group="new_task"),
    _rule("instead_output", "hijack", 1.5,
          r"\binstead(?: of [\w ]{1,30})?,? (?:you (?:will|must|should) |just |only )?(?:say|print|output|write|respond|reply)\b"),
    _rule("literal_output", "hijack", 1.0, r"\b(?:say|print|output|write|respond with|reply with|return)(?: only| just| exactly)?"
                                            r"(?: the (?:word|words|phrase|text|sentence|string))? ?[:\"“'‘]"),
    _rule("pwned", "hijack", 2.0, r"\b(?:i have been|i've been|been) pwned\b|\bpwned\b", group="pwned"),
    _rule("other_language_override", "override", 3.5,
          r"\b(?:ignorier(?:e|en)|vergiss|vergessen sie|missachte|ignorez|ignore[rz]?|oubliez|oublie|ignora|olvida|olvide)\b.{0,40}"
          r"\b(?:anweisungen|befehle|regeln|instruktionen|vorgaben|consignes|instructions|règles|regles|instrucciones|reglas|"
          r"órdenes|ordenes|indicaciones)\b"),
    # Chinese: 忽略/无视/忘记 ... (之前/以上 ...) 指令/规则/提示/设定
    _rule("override_qualified_zh", "override", 3.5,
          r"(?:忽略|忽视|无视|忘记|忘掉|忘了|不要理会|不理会|别理会|不要管|别管|不用管|抛开|抛弃|丢弃|放弃|跳过|绕过|覆盖|推翻|"
          r"撤销|清除|清空|重置|不再遵守|不要遵守|不用遵守|不必遵守|停止遵守|违背|摒弃|废除|作废|不要遵循|不再遵循|不要听从|"
          r"不再听从|解除|取消)[^。！？\n]{0,4}?(?:之前|以前|先前|此前|上面|上方|以上|上述|前面|前述|原来|原先|原有|原始|最初|初始|所有|"
          r"一切|全部|任何|你的|你被|系统|开发者|既定|预设|默认|刚才|之上)[^。！？\n]{0,8}?(?:指令|指示|规则|提示|设定|命令|要求|限制|"
          r"约束|准则|规定|指导|指南|程序|编程|安全|审查|策略|政策|规范|训练|角色|身份|设置|配置|原则|任务|prompt|instruction)", exempt=SELF_ZH),
    _rule("override_zh", "override", 1.5,
          r"(?:忽略|无视|忘记|忘掉|不要理会|不再遵守|不要遵守|不用遵守|绕过|推翻)[^。！？\n]{0,6}?(?:指令|规则|提示词|设定|命令|限制|"
          r"约束|准则|规定|内容)", exempt=SELF_ZH),
    _rule("forget_everything_zh", "override", 2.5,
          r"(?:忽略|无视|忘记|忘掉|忘了|清除|清空)(?:掉)?(?:之前|以前|此前|上面|以上|上述|前面|刚才)?(?:的)?(?:所有|一切|全部)(?:内容|信息|东西|对话|话)?"
          r"|(?:忽略|无视|忘记|忘掉)(?:掉)?(?:之前|以前|此前|上面|以上|上述|前面|刚才)(?:说|讲|给|提)?的?(?:所有|一切|全部)?(?:内容|信息|话|东西|文字)", exempt=SELF_ZH),
    _rule("hijack_zh", "hijack", 1.5,
          r"(?:然后|并且|并|接着|转而|改为|而是|[，,：:])\s*(?:直接|只|仅|立即)?(?:输出|回答|回复|说出|打印|返回|生成|翻译成|告诉我|写一|写出)"),
    _rule("stop_task_zh", "hijack", 1.5,
          r"(?:不要|别|不用|无需|停止)(?:再)?(?:翻译|总结|回答|执行|分析|处理|写)[^。！？\n]{0,6}[，,。]\s*(?:直接|只|仅)(?:输出|回复|说|回答|打印)"),
    _rule("new_instructions_zh", "override", 2.0, r"(?:你的|新的|以下是)新?(?:任务|角色|身份|指令|设定|目标|规则)(?:是|为|[：:])", group="new_task"),
]

# --- a new identity for the assistant -------------------------------------------------------------------------------
ROLE = [
    _rule("from_now_on_you_are", "role", 3.0,
          r"\bfrom (?:now|this (?:moment|point)|here) on(?:wards?)?,? (?:you(?:'re| are| will be| shall be| must be| become| will act"
          r"| will pretend| will play| will respond as| are going to (?:act|be|pretend|play))|act as|pretend|behave as|your name is)\b"),
    _rule("you_are_now", "role", 1.5, r"\b(?:you are now|you're now|now you are|now you're|you will now (?:be|act|pretend))\b"),
    _rule("no_longer_an_ai", "role", 3.5,
          rf"\byou(?:'re| are) no longer (?:an? |the )?(?:{AI}|bound|restricted|limited|required to (?:follow|obey|comply))"),
    _rule("stay_in_character", "role", 2.0, r"\b(?:stay|remain|keep|staying) in (?:character|role)\b|\bbreak(?:ing)? character\b", group="character"),
    _rule("from_now_on_zh", "role", 3.0,
          r"(?:从现在(?:开始|起)|从今以后|从此刻起|从这一刻起|从此以后)[，,]?\s*(?:你|您)(?:就|将|要|会|必须|只)?(?:是|扮演|作为|成为|变成|充当|化身|进入|叫)"),
    _rule("you_are_now_zh", "role", 1.5, r"(?:接下来|现在)[，,]?\s*你(?:就)?(?:是|扮演|将扮演|来扮演)"),
    _rule("no_longer_ai_zh", "role", 3.5,
          r"你(?:现在|已经)?(?:不再是|已不是|并不是)(?:一个)?(?:ai|人工智能|助手|chatgpt|模型|语言模型|机器人|程序)"),
    _rule("stay_in_character_zh", "role", 1.5, r"保持(?:角色|人设|这个身份)|(?:不要|别|不能)(?:跳出|脱离|打破)(?:角色|人设)", group="character"),
]

# --- hidden instructions asked for ----------------------------------------------------------------------------------
EXTRACT_VERB = (r"(?:print|reveal|repeat|show|output|display|tell|give|write (?:out|down)|type out|dump|leak|expose|disclose|share|"
                r"spell out|recite|echo|copy|paste|list|summari[sz]e|translate|provide|send|return|what (?:is|are|was|were)|"
                r"what'?s|read (?:back|out)|state|describe|explain|quote|reproduce|render|encode)")
HIDDEN = (r"(?:system|developer|hidden|secret|initial|original|internal|pre|meta|base|master|starting|first|confidential)"
          r"[ -]?(?:prompt|message|instructions?|directives?|configuration|rules)s?")
YOURS = (r"your (?:\w+ ){0,2}(?:prompt|instructions?|rules|guidelines|directives|configuration|programming|system message|"
         r"training data|constraints|setup|initial message|context|pre-?prompt|password|secret|secret key)")
ABOVE = (r"(?:(?:the |all (?:the )?|any )?(?:text|words|content|messages?|lines|everything|sentences|prompt|instructions?|"
         r"what (?:was|is) written) (?:above|before (?:this|that|here)|preceding this|prior to this|at the (?:start|beginning|top) of "
         r"(?:this|the|our) (?:conversation|chat|prompt|document|context))|(?:above|preceding|foregoing) (?:text|instructions?|prompt|"
         r"content|lines|words))")
GIVEN = (r"(?:(?:instructions?|prompt|rules|guidelines) (?:you (?:were|have been) given|given to you|you received|you(?: are)? "
         r"follow(?:ing)?|that (?:define|govern|control|shape) you)|(?:what|everything) you (?:were|have been) (?:told|instructed|"
         r"programmed|given))")
EXTRACTION = [
    _rule("reveal_hidden_prompt", "extraction", 3.5,
          rf"\b{EXTRACT_VERB}\b{W % 6}(?:(?:the|your|its|this|my|all|full|entire|complete|exact|whole) )*(?:{HIDDEN}|{YOURS}|{GIVEN})"),
    _rule("hidden_prompt_verbatim", "extraction", 3.5,
          rf"(?:{HIDDEN}|{YOURS}|{GIVEN})\b.{{0,40}}\b(?:verbatim|word for word|in full|exactly as (?:written|given)|"
          r"in a code ?block|starting (?:with|from))"),
    _rule("repeat_text_above", "extraction", 3.5,
          rf"\b(?:print|reveal|repeat|output|display|dump|leak|expose|disclose|spell out|recite|echo|copy|write out|type out|"
          rf"show me|tell me|reproduce|what (?:is|was|were)){W % 3}{ABOVE}"),
    _rule("reveal_prompt_zh", "extraction", 3.5,
          r"(?:输出|告诉我|告诉|显示|打印|重复|复述|泄露|透露|给我看|展示|说出|列出|公开|发给我|写出|背诵|念出|讲出|提供|给出|分享|翻译)"
          r"[^。！？\n]{0,8}?(?:系统提示|系统指令|系统消息|系统设定|初始指令|初始提示|初始设定|原始指令|原始提示|隐藏指令|秘密指令|"
          r"内部指令|最初的指令|最开始的指令|开发者指令|预设指令|你的(?:提示|指令|设定|规则|初始|prompt|系统|训练数据|配置)|"
          r"你收到的(?:指令|提示)|system prompt)"),
    _rule("prompt_question_zh", "extraction", 3.5,
          r"(?:系统提示词?|系统指令|初始指令|原始指令|隐藏指令|你的(?:提示词|指令|初始设定|设定|prompt|system prompt)|"
          r"你(?:被|所)?(?:设定|给定|告知)的(?:规则|指令))(?:的内容)?(?:是什么|有哪些|是啥|原文|原样|内容是|逐字|完整)"),
    _rule("repeat_above_zh", "extraction", 3.5,
          r"(?:原样|逐字|一字不差地?|完整地?)(?:输出|重复|复述|打印)(?:出)?(?:上面|以上|上述|前面|之前)的?(?:内容|文字|指令|提示|话)"
          r"|(?:重复|复述|打印)(?:一[遍下])?(?:上面|以上|上述|前面)(?:的)?(?:所有)?(?:指令|提示|提示词)"),
]

# --- jailbreaks: personas and demands to drop limits ------------------------------------------------------------
FREEDOM = (r"(?:no|without(?: any)?|free (?:of|from)(?: all| any)?|not (?:bound|restricted|limited|constrained) by(?: any)?|"
           r"unbound by|beyond|liberated from|freed from)\s+(?:\w+\s+)?(?:restrictions?|limitations?|limits|filters?|filtering|"
           r"censorship|rules|guidelines|boundaries|morals?|morality|ethics|ethical (?:guidelines|constraints|considerations)|"
           r"policies|content polic(?:y|ies)|safeguards|guardrails|constraints|restraints)")
JAILBREAK = [
    _rule("do_anything_now", "jailbreak", 3.5, r"\bdo anything now\b"),
    _rule("dan_persona", "jailbreak", 3.5,
          r"\b(?:dan|stan|dude|mongo tom|betterdan|anti-?dan|aim) (?:mode|prompt|jailbreak|persona)\b|\[(?:🔓)?(?:dan|jailbreak|jailbroken)\]"
          r"|\b(?:act|acting|behave|pretend(?: to be)?|roleplay) as (?:a |an )?(?:dan|stan|dude|mongo tom)\b(?!['’])"
          r"|\byou(?:'re| are)(?: now| going to be| going to act as| about to become)? (?:dan|stan)\b(?!['’])"
          r"|(?:^|\n)(?:dan|jailbreak|jailbroken|🔓jailbreak)\s*:"),
    _rule("developer_mode", "jailbreak", 3.5,
          r"^(?!.*\b(?:chrome|browser|android|ios|iphone|ipad|windows|extensions?|settings|phones?|devices?|apps?|vs ?code|firefox|"
          r"edge|safari|macos|xcode|usb|adb|debugging|laptop)\b).*(?:\bdeveloper mode\b.{0,60}\b(?:enabled|activated|on|output|"
          r"responses?|you|chatgpt|ai|gpt|simulate|act|policies|generate)\b|\b(?:you|chatgpt|ai|gpt|llm|model|assistant)\b.{0,60}"
          r"\bdeveloper mode\b)"),
    _rule("special_mode", "jailbreak", 3.0,
          r"\b(?:you(?:'re| are)(?: now)? in|enter|entering|activate|enable|switch to|unlock)(?: the)? (?:god|sudo|jailbreak|jailbroken|"
          r"unrestricted|unfiltered|uncensored|evil|chaos|opposite|dan|admin|root|unlocked|debug) mode\b"),
    _rule("jailbroken", "jailbreak", 3.5,
          r"\b(?:you(?:'re| are| have been| were)(?: now)?|now) jailbr(?:o|ea)ken\b|\bjailbreak(?:ed)? (?:mode|prompt|version|enabled|"
          r"activated|successful|complete)\b|\b(?:enable|activate|start|begin|initiate) (?:the )?jailbreak\b"),
    _rule("jailbreak_word", "jailbreak", 1.5,
          r"^(?!.*\b(?:research|detection|detect|defen[cs]es?|paper|papers|study|studies|classifier|dataset|benchmark|robustness|"
          r"security|red[ -]team(?:ing)?|iphone|ios|phone|console|prison)\b).*\bjailbr(?:o|ea)k"),
    _rule("unrestricted_ai", "jailbreak", 3.5,
          r"\b(?:unrestricted|unfiltered|uncensored|unlimited|unbounded|unchained|unshackled|amoral|unethical|immoral|lawless|"
          r"rule-?free|no-?limits?|limitless|evil|malicious|unhinged|rogue|toxic|depraved|nsfw|dark)\s+(?:\w+\s+)?(?:ai|assistant|"
          r"chatbot|bot|llm|gpt|chatgpt|entity|intelligence|persona|alter ego|twin|confidant|version of (?:yourself|you|chatgpt)|"
          r"language model|model)\b"),
    _rule("you_have_no_limits", "jailbreak", 3.5,
          rf"\byou(?:'re| are| have| now have| will have| can| will| must| should)?(?: now| be| act| operate| respond| answer)?"
          rf"(?: \w+)?(?: completely| totally| entirely)? {FREEDOM}", group="freedom"),
    _rule("answer_without_limits", "jailbreak", 3.0,
          r"\b(?:answer|respond|reply|talk|speak|write|generate|output|comply)\b.{0,30}\b(?:without (?:any )?(?:restrictions|"
          r"limitations|filters?|censorship|censoring|moral|ethic\w*|warnings|disclaimers|refus\w+)|no matter (?:how|what) "
          r"(?:immoral|unethical|illegal|harmful|dangerous|offensive))", group="freedom"),
    _rule("freedom", "jailbreak", 1.5, FREEDOM, group="freedom"),
    _rule("never_refuse", "jailbreak", 2.0,
          r"\b(?:never|cannot|can'?t|must not|will not|won'?t|do not|don'?t) (?:refuse|decline|say no|reject (?:a|any) request|"
          r"apologi[sz]e|add (?:any )?(?:warnings|disclaimers))\b|\bwithout (?:any )?(?:refus\w+|disclaimers|warnings)\b", group="refuse"),
    _rule("grandma_exploit", "jailbreak", 3.5,
          r"\b(?:grandma|grandmother|granny|nana|grandpa|grandfather)\b.{0,120}\b(?:used to|would|always|every night)\b.{0,80}"
          r"\b(?:keys?|serial|license|licence|activation|product codes?|recipe|napalm|bomb|meth|password|exploit|malware|steps)\b", group="grandma"),
    _rule("grandma_roleplay", "jailbreak", 2.0,
          r"\b(?:pretend|act|roleplay|role-play|play|be)\b.{0,30}\b(?:my )?(?:deceased|late|dead|dear)? ?(?:grandma|grandmother|granny)\b", group="grandma"),
    _rule("hypothetical_no_rules", "jailbreak", 1.5,
          r"\b(?:hypothetical(?:ly)?|in a fictional world|imagine a world|for a (?:story|novel)|purely fictional)\b.{0,60}\b(?:no "
          r"(?:rules|laws|restrictions|limits)|anything goes|illegal|forbidden)\b", group="hypothetical"),
    _rule("jailbreak_zh", "jailbreak", 2.5, r"^(?!.*(?:手机|iphone|ios|安卓|苹果|监狱|电影|越狱者)).*越狱"),
    _rule("jailbreak_mode_zh", "jailbreak", 3.5,
          r"越狱(?:模式|版|成功|后的你|状态)|(?:进入|开启|启动|切换到|激活|处于)了?(?:开发者|越狱|无限制|上帝|管理员|调试|dan|邪恶|自由|"
          r"无审查|无过滤)模式"),
    _rule("no_limits_you_zh", "jailbreak", 3.5,
          r"你(?:现在|已经|将|就|可以|必须|是|将会)?[^。！？\n]{0,6}?(?:没有任何限制|没有任何约束|不受(?:任何)?[^。！？\n]{0,4}?(?:约束|限制|"
          r"审查|束缚)|无限制|没有(?:任何)?(?:道德|伦理|法律)(?:约束|底线|限制|观念)|不需要遵守(?:任何)?|摆脱了?[^。！？\n]{0,6}?(?:限制|束缚|约束|规则))", group="freedom"),
    _rule("unrestricted_ai_zh", "jailbreak", 3.5,
          r"(?:没有任何限制|没有限制|不受(?:任何)?(?:约束|限制|审查)|无限制|无审查|无过滤|没有(?:道德|伦理)(?:约束|底线)?|邪恶|不道德)"
          r"的(?:ai|人工智能|助手|模型|机器人|聊天机器人|版本|角色|chatgpt|gpt|大模型)"),
    _rule("roleplay_no_limits_zh", "jailbreak", 3.5,
          r"(?:扮演|假装|充当|模拟|假设你是|想象你是|假如你是)[^。！？\n]{0,10}?(?:没有|不受|无|毫无|摆脱)(?:任何)?(?:限制|约束|道德|审查|底线|规则)", group="freedom"),
    _rule("answer_without_limits_zh", "jailbreak", 3.0,
          r"(?:回答|回复|输出|生成|说|写)[^。！？\n]{0,8}?(?:不受|没有|无视|不考虑|不管)(?:任何)?(?:限制|约束|审查|过滤|道德|伦理|法律)", group="freedom"),
    _rule("freedom_zh", "jailbreak", 2.0,
          r"没有任何限制|不受任何?(?:约束|限制)|不受约束|无视(?:所有|一切)?(?:道德|法律|规则|限制)|解除(?:所有|一切)?(?:限制|封印|约束)", group="freedom"),
    _rule("never_refuse_zh", "jailbreak", 2.0, r"(?:不能|不可以|不要|不许|不得|永远不|绝不)(?:拒绝|说不|道歉|添加警告)", group="refuse"),
    _rule("grandma_zh", "jailbreak", 3.5,
          r"(?:奶奶|外婆|姥姥|祖母)[^。！？\n]{0,30}?(?:以前|过去|经常|总是|常常|每晚|会)[^。！？\n]{0,20}?(?:讲|念|读|说|告诉)[^。！？\n]{0,20}?"
          r"(?:序列号|激活码|密钥|秘钥|注册码|配方|制作方法|凝固汽油|炸弹|毒品|密码|windows)", group="grandma"),
    _rule("grandma_roleplay_zh", "jailbreak", 2.0, r"(?:扮演|假装|充当)(?:我)?(?:已经)?(?:去世|过世|死去)?的?(?:奶奶|外婆|姥姥|祖母)", group="grandma"),
]

# --- bulk data sent outside ------------------------------------------------------------------------------------------
EXFIL_VERB = (r"(?:send|sending|email|e-mail|forward|post|upload|transmit|export|leak|share|copy|exfiltrate|mail|deliver|submit|"
              r"cc|bcc|dump|publish|paste|write|sync)")
BULK = (r"(?:all|every|each|the (?:entire|whole|full|complete)|complete|entire|whole)(?: of)?(?: the| our| your)?(?: \w+){0,2}? "
        r"(?:candidates?'?s?|applicants?'?s?|users?'?s?|customers?'?s?|employees?'?s?|clients?'?s?|contacts?'?|people'?s?|"
        r"talent(?: pool)?'?s?)?(?: personal)? ?(?:emails?|e-mail addresses|email addresses|addresses|data|records|contact "
        r"(?:details|info(?:rmation)?|list)|phone numbers|numbers|resumes|cvs|personal (?:data|information|details)|pii|database|"
        r"files|information|details|profiles|salar(?:y|ies)|ssns?|passwords|credentials|id numbers)")
SECRET_DATA = (r"(?:api keys?|credentials|passwords?|access tokens?|secret keys?|private keys?|conversation history|chat history|"
               r"the (?:database|db)|internal (?:data|notes)|session (?:cookies|tokens))")
DEST = r"(?:\S+@\S+\.\w+|https?://|www\.|\b[\w-]+\.(?:com|net|org|io|ru|cn|xyz|top)\b|\bwebhook\b|\b(?:an? )?external\b|\bpastebin\b)"
SECRECY = (r"\b(?:secretly|silently|quietly|covertly|discreetly|without (?:telling|notifying|informing|alerting|asking)|"
           r"(?:do not|don'?t|never) (?:tell|mention|inform|notify|log|alert|reveal this)|behind the scenes|hidden from)\b")
EXFILTRATION = [
    _rule("send_bulk_data", "exfiltration", 2.0, rf"\b{EXFIL_VERB}\b{W % 4}{BULK}\b", document=3.0),
    _rule("send_secrets", "exfiltration", 2.0, rf"\b{EXFIL_VERB}\b{W % 4}(?:(?:the|your|all|our) )?{SECRET_DATA}\b", document=3.0),
    _rule("external_destination", "exfiltration", 1.5, rf"\b(?:to|at|into|via|on)\s+(?:the following:? )?{DEST}", group="destination"),
    _rule("secrecy", "exfiltration", 1.5, SECRECY, group="secrecy"),
    _rule("send_bulk_data_zh", "exfiltration", 2.0,
          r"(?:发送|发给|发到|转发|上传|导出|泄露|传给|传到|抄送|邮件给|邮寄|同步到|复制到|提交到|发往)[^。！？\n]{0,10}?(?:所有|全部|全体|每个|"
          r"每位|整个|一切)[^。！？\n]{0,8}?(?:邮箱|邮件地址|电子邮件|数据|信息|联系方式|电话|手机号|简历|个人信息|资料|数据库|薪资|身份证)"
          r"|(?:所有|全部|全体|每个|每位|整个)[^。！？\n]{0,8}?(?:邮箱|邮件地址|数据|信息|联系方式|电话|手机号|简历|个人信息|资料|数据库|身份证)"
          r"[^。！？\n]{0,6}?(?:发送|发给|发到|转发|上传|导出|泄露|传给|传到|抄送)", document=3.0),
    _rule("external_destination_zh", "exfiltration", 1.5, r"(?:发送|发给|发到|转发|上传|传到|传给|抄送)(?:到|至|给)?\s*\S+@\S+|https?://", group="destination"),
    _rule("secrecy_zh", "exfiltration", 1.5, r"偷偷|悄悄|秘密地|暗中|(?:不要|别|切勿)(?:告诉|通知|让)(?:用户|任何人|招聘人员|hr|他们)", group="secrecy"),
]

# --- fake role markers -------------------------------------------------------------------------------------------
ROLE_MARKER = [
    _rule("chat_template_token", "role_marker", 3.5,
          r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\|>|\[/?inst\]"
          r"|<</?sys>>|</?(?:system|system_prompt|instructions?|admin|developer)>|\[/?(?:system|admin|developer|sys|system message|"
          r"system prompt|new instructions?|system override|admin override)\]|【(?:系统|系统提示|系统消息|管理员|指令|系统指令)】"),
    _rule("role_header", "role_marker", 2.5,
          r"^\s*#{2,}\s*(?:system|instructions?|new instructions?|response|assistant|human|admin|developer|system prompt)\b"),
    _rule("role_prefix", "role_marker", 2.0,
          r"^\s*(?:system|assistant|admin|administrator|developer|root|human|ai|gpt|chatgpt|system message|系统|系统消息|管理员|助手|开发者)\s*[:：]"),
    _rule("override_code", "role_marker", 2.0,
          r"\b(?:system|admin|administrator|developer|security|emergency|root) (?:override|mode|access|command|protocol)\b"
          r"|\boverride (?:code|mode|protocol|authori[sz]ation)\b|\bend of (?:system )?(?:prompt|instructions)\b"
          r"|\bbegin (?:new )?(?:system )?instructions\b|(?:系统|管理员)(?:覆盖|指令|命令|权限)", group="override_code"),
]

# --- documents speaking to the AI that reads them --------------------------------------------------------------
INDIRECT = [
    _rule("note_to_ai", "indirect", 2.0,
          rf"\b(?:note|message|instructions?|memo|notice|hint|reminder|directive|p\.?s\.?|comment|request)s?\s*(?:to|for)\s+"
          rf"(?:the |any |all |every )?(?:{READER}|ai reviewers?|machine readers?)\b", document=3.5),
    _rule("dear_ai", "indirect", 1.5,
          rf"\b(?:dear|hello|hi|hey|attention|greetings|ok|okay),?\s+(?:the |any |all )?(?:{READER})\b", document=3.0),
    _rule("if_you_are_an_ai", "indirect", 2.5,
          rf"\bif (?:you(?:'re| are)|this is being read by)\s+(?:an? |the )?(?:{READER}|automated|artificial intelligence|machine|"
          r"non-?human|robot|an ai)\b", document=3.5),
    _rule("ai_reading_this", "indirect", 2.0,
          rf"\b(?:{READER}|tools?|readers?|reviewers?|systems?)\s+(?:that is |who is |which is |that are |currently )?(?:reading|"
          r"processing|reviewing|screening|evaluating|parsing|analy[sz]ing|summari[sz]ing|scanning|assessing|ranking|scoring)\s+"
          r"(?:this|these|my|the following)\s+(?:resume|cv|document|application|text|email|page|profile|submission|file|"
          r"cover letter|candidate)", document=3.5),
    _rule("rank_me_first", "indirect", 1.5,
          r"\b(?:rank|rate|score|grade|mark|list|place|put|position|recommend|classify|evaluate|select|tag|flag|label|consider)\s+"
          r"(?:me|this (?:candidate|applicant|resume|cv|person|profile|application)|him|her|the candidate|the applicant|my "
          r"(?:resume|cv|application|profile))\s+(?:as\s+)?(?:first|1st|#1|number one|no\.? ?1|top|highest|the (?:top|best|highest|"
          r"strongest|most qualified|ideal)|above (?:all|every|other)|at the top|as (?:an? )?(?:strong|top|perfect|excellent|ideal) "
          r"(?:match|fit|hire|candidate)|(?:an? )?(?:perfect|top|highest|maximum|max|full|10/10|100/100|10 out of 10) "
          r"(?:score|rating|match|marks))", document=3.0, group="manipulation"),
    _rule("give_me_top_score", "indirect", 1.5,
          r"\b(?:give|assign|award|grant)\s+(?:me|this (?:candidate|applicant|resume|cv|application)|him|her|the candidate)\s+"
          r"(?:a |an |the )?(?:perfect|highest|maximum|max|top|full|10/10|100%?|100/100|10 out of 10|5-star|five-star|excellent)\s+"
          r"(?:score|rating|marks?|grade|match score|ranking|evaluation|review)", document=3.0, group="manipulation"),
    _rule("hire_me_now", "indirect", 1.0,
          r"\b(?:hire|shortlist|advance|select|approve|interview|accept)\s+(?:me|this (?:candidate|applicant))\s+(?:immediately|"
          r"right away|now|automatically|without (?:further )?(?:review|question|screening|checks?))\b", document=2.5, group="hire"),
    _rule("reject_others", "indirect", 1.0,
          r"\b(?:reject|disqualify|ignore|downrank|rank lower|filter out|eliminate)\s+(?:all |every |any )?other (?:candidates|"
          r"applicants|resumes|cvs|submissions)\b", document=2.5, group="reject_others"),
    _rule("ignore_requirements", "indirect", 0.0,
          r"\b(?:ignore|disregard|overlook|skip)\b.{0,30}\b(?:qualifications?|requirements|criteria|gaps?|missing (?:skills|"
          r"experience|degree)|red flags|weaknesses)\b", document=2.0, group="ignore_requirements"),
    _rule("do_not_mention", "indirect", 1.0,
          r"\b(?:do not|don'?t|never)\s+(?:reveal|mention|disclose|tell anyone|report|flag|acknowledge)\s+(?:this|these|that|the)\s+"
          r"(?:instructions?|notes?|text|message|section|request)\b", document=2.0, group="conceal"),
    _rule("hidden_text", "indirect", 1.0,
          r"\b(?:white|invisible|hidden) (?:text|font|ink)\b|font-size:\s*0|color:\s*(?:white|#fff)|display:\s*none", document=1.5, group="hidden"),
    _rule("note_to_ai_zh", "indirect", 2.0,
          r"(?:给|致|写给|对|告诉)(?:正在阅读的|阅读本文的|读取本简历的|阅读此简历的)?(?:ai|人工智能|模型|大模型|语言模型|助手|ai助手|"
          r"筛选系统|简历筛选系统|招聘系统|招聘机器人|机器人|chatgpt|gpt|llm|自动化系统|评估系统|审核系统)的?(?:说明|指令|提示|留言|话|备注|"
          r"信|消息|请求|特别说明)", document=3.5),
    _rule("if_you_are_ai_zh", "indirect", 2.5,
          r"(?:如果|假如|若|倘若|要是)(?:你|您)(?:是|作为)(?:一个|一名|一位|个)?(?:ai|人工智能|语言模型|大模型|大语言模型|模型|机器人|"
          r"自动化|筛选系统|招聘系统|助手|ai助手|chatgpt|gpt|llm|程序|算法)", document=3.5),
    _rule("ai_reading_zh", "indirect", 2.0,
          r"(?:ai|人工智能|模型|系统|助手|机器人|筛选器|算法)(?:在|正在)?(?:阅读|处理|审阅|筛选|评估|分析|读取|解析|审核)(?:这份|此|本|我的)"
          r"(?:简历|文档|文件|申请|材料)", document=3.5),
    _rule("attention_ai_zh", "indirect", 1.5, r"(?:ai|人工智能|模型|助手|机器人|系统)(?:请|务必|必须)(?:注意|听好|执行|遵守)", document=3.0),
    _rule("rank_me_first_zh", "indirect", 1.5,
          r"(?:把|将)(?:我|本人|此人|他|她|该候选人|这位候选人|这份简历|我的简历|本简历)(?:排|排在|列为|评为|放在|作为|标记为|推荐为|定为)"
          r"(?:第一|第一位|第一名|首位|最前|最前面|最高|最佳|首选|最优|top|满分|强烈推荐|最合适)", document=3.0, group="manipulation"),
    _rule("give_me_top_score_zh", "indirect", 1.5,
          r"给(?:我|本人|此人|该候选人|这位候选人|这份简历|我的简历)(?:打|评|一个)?(?:满分|最高分|最高评分|100分|十分|10分|最高评级|"
          r"最高等级|五星|最高的评分)", document=3.0, group="manipulation"),
    _rule("hire_me_now_zh", "indirect", 1.0,
          r"(?:直接|立即|马上|无条件)(?:录用|录取|通过|推荐|安排面试|发offer)(?:我|本人|此人|该候选人)?|推荐(?:我|本人|该候选人)进入(?:下一轮|面试)",
          document=2.5, group="hire"),
    _rule("reject_others_zh", "indirect", 1.0, r"(?:拒绝|淘汰|忽略|排除)(?:所有|全部)?其他(?:候选人|应聘者|简历|求职者|人)", document=2.5, group="reject_others"),
    _rule("do_not_mention_zh", "indirect", 1.0,
          r"(?:不要|别|切勿|请勿)(?:告诉|透露|提及|提到|报告|显示|向[^。！？\n]{1,6}透露)(?:这|此|这段|本)?(?:条|段)?(?:指令|说明|内容|信息|提示)",
          document=2.0, group="conceal"),
]

# --- supporting evidence: never enough alone ---------------------------------------------------------------------
SUPPORT = [
    _rule("addresses_ai", "support", 1.0, rf"\b(?:{AI})\b|人工智能|大模型|语言模型|机器人"),
    _rule("urgent_preamble", "support", 0.5, r"^(?:stop|wait|attention|important|urgent|alert|warning|注意|重要|紧急)\s*[!:：]", group="urgent"),
]

ALL_RULES: tuple[Rule, ...] = (*OVERRIDE, *ROLE, *EXTRACTION, *JAILBREAK, *EXFILTRATION, *ROLE_MARKER, *INDIRECT, *SUPPORT)

# A cheap first pass: a sentence none of these stems appear in cannot reach the threshold, so it is not scored.
ANCHOR = re.compile(
    r"ignor|disregard|forget|overrid|bypass|instruct|prompt|rule|system|jailbr|\bdan\b|\bstan\b|anything now|mode\b|restrict|limit|"
    r"filter|censor|ethic|moral|pretend|roleplay|role-play|character|from now|from this|now on|you are now|you're now|now you|"
    r"no longer|reveal|repeat|print|verbatim|above|send|forward|e-?mail|upload|export|leak|\bai\b|a\.i\.|llm|gpt|assistant|model|"
    r"bot\b|rank|score|grandma|grandmother|granny|<\||\[|#|:|pwned|new (?:task|role|rule|instruc|persona|goal|objective)|"
    r"reader|screen|parser|\bats\b|say|output|never|refuse|instead|hire me|reject|dear|hello|hi\b|hey\b|verbatim|secret|hidden|"
    r"invisible|white|font|color|hypothetical|ignoriere|vergiss|oubli|olvid|ignora|"
    r"忽略|忽视|无视|忘记|忘掉|忘了|理会|不要管|别管|不用管|抛开|抛弃|丢弃|放弃|跳过|绕过|覆盖|推翻|撤销|清除|清空|重置|遵守|违背|摒弃|废除|作废|"
    r"遵循|听从|解除|取消|指令|规则|提示|设定|从现在|从今以后|从此|接下来|现在|不再是|不是|角色|人设|越狱|限制|约束|审查|道德|伦理|模式|扮演|"
    r"假装|假设|奶奶|外婆|姥姥|祖母|发送|发给|发到|转发|上传|导出|泄露|传给|传到|抄送|邮件|同步|复制|提交|偷偷|悄悄|秘密|暗中|"
    r"【|系统|管理员|助手|开发者|ai|人工智能|模型|机器人|筛选|排|满分|最高|录用|录取|推荐|淘汰|拒绝|告诉|透露|提及|输出|打印|重复|复述|"
    r"显示|说出|不要|别|任务|新的"
)
