"""Bilingual sentences of CareerNavigator's offline engine, kept apart from its logic."""

from __future__ import annotations

from pipelines.core.text import Phrasebook

SAY = Phrasebook({
    # coordinator
    "clarity.target_role": ("目标岗位", "target role"),
    "clarity.background": ("当前岗位与工作年限", "current position and experience"),
    "clarity.skills": ("技能清单", "list of skills"),
    "clarity.timeframe": ("时间框架", "timeframe"),
    "clarity.constraints": ("约束条件（每周可投入时间、预算、地点等）", "constraints (hours per week, budget, location)"),
    "clarity.education": ("教育背景", "education"),
    "clarity.specificity": ("细分方向", "specific focus within the role"),
    "clarity.motivation": ("动机与兴趣", "motivation and interests"),
    "clarity.reasoning": ("目标清晰度{score}分：已明确{found}；尚缺{missing}。",
                          "Goal clarity {score}/100: known — {found}; missing — {missing}."),
    # planner
    "plan.strategy": (
        "目标清晰度{score}分，方向为{role}。先并行完成个人能力画像、{industry}行业研究和{role}岗位分析，"
        "用技能差距确定转型路径；再按您的反馈迭代，最后拆分目标并排出周计划。{gap_note}",
        "Goal clarity is {score}/100, heading for {role}. First run a personal profile, research of the {industry} "
        "industry and an analysis of the {role} role in parallel, using the skill gap to find the way in; then "
        "iterate on your feedback, and finally break the goal down into a weekly plan. {gap_note}"),
    "plan.gap_note": ("需要补充的信息：{missing}。", "Information still to collect: {missing}."),
    "plan.no_role": ("尚未确定的目标方向", "a direction still to be chosen"),
    "plan.priority.transfer": ("对照{role}要求梳理可迁移技能", "Map transferable skills against the {role} role"),
    "plan.priority.market": ("评估{industry}行业需求、增长与薪资区间", "Assess demand, growth and pay in {industry}"),
    "plan.priority.path": ("设计从{current}到{role}的进入路径", "Design the path from {current} to {role}"),
    "plan.question.timeframe": ("您希望在多长时间内完成转型？", "Within what timeframe do you want to make the move?"),
    "plan.question.constraints": ("您每周能投入多少小时学习？有预算或地点限制吗？",
                                  "How many hours a week can you invest, and do you have budget or location limits?"),
    "plan.question.target_role": ("您最感兴趣的具体岗位是什么？", "Which specific role interests you most?"),
    # supervisor
    "focus.salary": ("薪资与待遇", "salary and compensation"),
    "focus.remote": ("远程与灵活办公机会", "remote and flexible work"),
    "focus.location": ("目标城市的机会", "opportunities in the target city"),
    "focus.balance": ("工作与生活平衡", "work-life balance"),
    "focus.transition": ("技术转产品路径", "technical-to-product transition path"),
    "focus.portfolio": ("作品集与项目经验", "portfolio and project experience"),
    "focus.note": ("按反馈调整：重点关注{focus}。", "Adjusted to the feedback: focus on {focus}."),
    "focus.none": ("反馈未提出新的关注点，保持原分析重点。", "The feedback names no new focus; keeping the previous one."),
    # task descriptions
    "task.user_profiler": ("个人分析", "personal analysis"),
    "task.industry_researcher": ("行业研究", "industry research"),
    "task.job_analyzer": ("职业分析", "career analysis"),
    "task.desc": ("第{iteration}轮：{kind}（{role}）{focus}", "Iteration {iteration}: {kind} ({role}){focus}"),
    "task.focus": ("，重点：{focus}", ", focus: {focus}"),
    # profiler
    "trait.engineering": ("技术背景|逻辑思维", "technical background|structured problem solving"),
    "trait.data": ("数据分析能力|量化思维", "analytical skills|quantitative thinking"),
    "trait.product": ("产品视角|跨团队协作", "product perspective|cross-team collaboration"),
    "trait.design": ("用户同理心|视觉表达", "user empathy|visual communication"),
    "trait.business": ("商业理解|沟通协调", "business understanding|coordination"),
    "trait.other": ("行业经验|学习能力", "industry experience|ability to learn"),
    "insight.summary": ("您已具备{role}所需{matched}/{total}项核心技能（{pct}%）。优势在{strengths}；主要差距在{gaps}。",
                        "You already meet {matched} of the {total} core skills of a {role} ({pct}%). Strengths: "
                        "{strengths}; main gaps: {gaps}."),
    "insight.focus": ("针对“{focus}”方向：还需补充{skills}。", "For the “{focus}” direction you still need {skills}."),
    "insight.focus_ok": ("针对“{focus}”方向：相关技能已具备基础。", "For the “{focus}” direction your skills already give a base."),
    # researcher
    "industry.summary": ("{industry}行业需求指数{demand}/100，年增长约{growth}%，前景{outlook}。{focus}",
                         "{industry}: demand index {demand}/100, about {growth}% annual growth, outlook {outlook}. {focus}"),
    "industry.focus": ("与您关注的方向相关的细分领域：{segments}。", "Segments matching your focus: {segments}."),
    "outlook.rising": ("向好", "rising"),
    "outlook.stable": ("平稳", "stable"),
    "outlook.cooling": ("趋冷", "cooling"),
    # job analyzer
    "career.summary": ("{role}：{role_summary} 需求指数{demand}/100，薪资约{salary}。与您的匹配度{score}。",
                       "{role}: {role_summary} Demand index {demand}/100; pay about {salary}. Your match: {score}."),
    "career.suggested": ("您尚未指明目标岗位，根据您目标中提到的领域和已有技能，最接近的方向是：",
                         "You named no target role; judging by the field your goal mentions and your skills, the closest is"),
    "career.demand": ("需求指数{demand}/100，招聘趋势{trend}", "demand index {demand}/100, openings {trend}"),
    "level.junior": ("初级", "junior"),
    "level.mid": ("中级", "mid-level"),
    "level.senior": ("高级", "senior"),
    "salary.CN": ("{low:,}–{high:,} 元/月（{level}）", "CNY {low:,}–{high:,} per month ({level})"),
    "salary.US": ("{low:,}–{high:,} 美元/年（{level}）", "USD {low:,}–{high:,} per year ({level})"),
    "path.inside": ("在现岗位主动承担与{role}相关的工作（如参与需求评审、数据分析）",
                    "Take on {role}-type work in your current job (requirement reviews, analysis)"),
    "path.close_gaps": ("集中补齐：{skills}", "Close the main gaps: {skills}"),
    "path.project": ("完成一个{topic}方向的作品项目并公开展示", "Build and publish a portfolio project on {topic}"),
    "path.apply": ("争取内部转岗，或投递{level}{role}岗位", "Seek an internal move, or apply for {level} {role} roles"),
    "alt.reason": ("与您已有技能重合{n}项", "{n} of its core skills match yours"),
    # reporter
    "report.summary": ("基于您的{current}背景，推荐方向：{career}（匹配度{score}）。优势：{strengths}；差距：{gaps}。"
                       "{industry}需求指数{demand}/100，年增长约{growth}%。",
                       "Given your background as {current}, the recommended direction is {career} (match {score}). "
                       "Strengths: {strengths}; gaps: {gaps}. {industry} has a demand index of {demand}/100 and "
                       "about {growth}% annual growth."),
    "report.focus_summary": ("本轮按您的反馈聚焦{focus}。", "This round follows your feedback and focuses on {focus}."),
    "report.career_focus": ("{role}（{focus}方向）", "{role} ({focus})"),
    "report.finding.match": ("已满足{pct}%的核心技能要求", "{pct}% of the core skill requirements are already met"),
    "report.finding.salary": ("{role}薪资参考：{salary}", "{role} pay reference: {salary}"),
    "report.finding.trend": ("行业趋势：{trend}", "Industry trend: {trend}"),
    "report.finding.segment": ("细分机会：{segment}（需求指数{demand}）—{note}", "Opportunity: {segment} (demand {demand}) — {note}"),
    "report.finding.alt": ("备选方向：{roles}", "Alternatives: {roles}"),
    "report.rec.skill": ("补齐{skill}：{resource}", "Build up {skill}: {resource}"),
    "report.rec.skill_plain": ("补齐{skill}", "Build up {skill}"),
    "report.rec.project": ("用一个{topic}作品项目证明能力", "Prove it with a {topic} portfolio project"),
    "report.rec.network": ("联系3位在职{role}做信息访谈", "Hold informational interviews with 3 working {role}s"),
    "report.iteration": ("第{n}轮迭代：根据反馈“{feedback}”，分析重点调整为{focus}。与上一轮相比：{changes}",
                         "Iteration {n}: after the feedback “{feedback}”, the analysis now focuses on {focus}. "
                         "Compared with the previous round: {changes}"),
    "report.iteration_no_text": ("第{n}轮迭代：客户未满意但未说明原因，分析重点保持为{focus}。与上一轮相比：{changes}",
                                 "Iteration {n}: the client was not satisfied but gave no reason, so the focus stays "
                                 "on {focus}. Compared with the previous round: {changes}"),
    "report.focus_unchanged": ("原有方向", "the same areas as before"),
    "report.change.career": ("推荐方向由“{old}”调整为“{new}”", "the recommendation moved from “{old}” to “{new}”"),
    "report.change.gaps": ("新增需补充的技能：{skills}", "newly identified skills to build: {skills}"),
    "report.change.segments": ("新增关注的细分领域：{segments}", "new segments considered: {segments}"),
    "report.change.none": ("结论未变，补充了对反馈的回应", "conclusions unchanged, with the feedback answered"),
    "report.limit_note": ("已达到最大迭代次数（{limit}次），将基于最新报告继续拆分目标。",
                          "The maximum of {limit} iterations is reached; goal decomposition continues from the latest report."),
    "plan.limit_note": ("最终计划已修订{limit}次（达到上限），以当前版本结束。",
                        "The final plan was revised {limit} times (the limit); the current version stands."),
})
