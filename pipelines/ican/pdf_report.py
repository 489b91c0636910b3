"""The iCan PDF a counselor hands the client: RIASEC radar, matches table, the report and the conversation."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pipelines.core.pdf.document import PdfDocument
from pipelines.core.text import Phrasebook
from pipelines.ican.report import match_title
from pipelines.ican.resume import flagged_note, flagged_passages
from pipelines.ican.riasec import type_name
from pipelines.ican.schemas import RIASEC

SAY = Phrasebook({
    "title": ("iCan 职业发展报告", "iCan career report"),
    "subtitle": ("霍兰德代码 {code} · 会话 {session}", "Holland code {code} · session {session}"),
    "facts": ("会话信息", "Session"),
    "session": ("会话编号", "Session id"), "date": ("日期", "Date"), "code": ("霍兰德代码", "Holland code"),
    "resume": ("简历", "Resume"), "no_resume": ("未提供", "none"), "turns": ("来访者消息数", "Client messages"),
    "radar": ("RIASEC 兴趣雷达图", "RIASEC interest profile"),
    "scores": ("各类型得分", "Scores by type"), "type": ("类型", "Type"), "score": ("得分", "Score"),
    "evidence": ("依据", "Evidence"),
    "matches": ("匹配职业（前 10）", "Career matches (top 10)"),
    "rank": ("#", "#"), "occupation": ("职业", "Occupation"), "interest": ("兴趣代码", "Interest code"),
    "match": ("匹配度", "Score"), "why": ("理由", "Why"),
    "flag": ("已标记", "flagged"),
    "conversation": ("对话记录", "Conversation"), "client": ("来访者", "Client"), "guide": ("向导", "Guide"),
    "incomplete": ("会话尚未完成分析，本 PDF 只包含目前已有的内容。",
                   "The analysis has not finished; this PDF holds what there is so far."),
    "attribution": ("职业数据来自 O*NET 30.2 数据库（USDOL/ETA，CC BY 4.0）。O*NET® 是 USDOL/ETA 的商标。",
                    "This product includes information from the O*NET 30.2 Database by USDOL/ETA, used under "
                    "CC BY 4.0. O*NET® is a trademark of USDOL/ETA."),
})


def ican_pdf(state: Mapping[str, Any], date: str | None = None) -> bytes:
    """The session's PDF in the client's language; headers carry the date, footers the page numbers."""
    lang = state.get("language") or "en"
    date = date or datetime.now().strftime("%Y-%m-%d")
    code = state.get("holland_code") or "—"
    session = str(state.get("session_id") or "")[:12]
    doc = PdfDocument(SAY("title", lang), subtitle=SAY("subtitle", lang, code=code, session=session), date=date)
    history = state.get("conversation_history") or []
    doc.key_values([
        (SAY("session", lang), state.get("session_id") or "—"), (SAY("date", lang), date),
        (SAY("code", lang), code), (SAY("resume", lang), state.get("resume_name") or SAY("no_resume", lang)),
        (SAY("turns", lang), sum(1 for t in history if t.get("role") == "user"))])
    if not state.get("final_report"):
        doc.paragraph(SAY("incomplete", lang), "subtitle")
        _flagged(doc, flagged_passages(state), lang)  # the report carries this note once it is written
    scores = state.get("riasec_scores") or {}
    if scores:
        _riasec(doc, scores, state.get("riasec_evidence") or {}, lang)
    if state.get("final_report"):
        doc.markdown(_without_title(str(state["final_report"])))
    matches = state.get("career_matches") or []
    if matches:
        doc.heading(SAY("matches", lang), 2)
        doc.table([SAY(k, lang) for k in ("rank", "occupation", "interest", "match", "why")],
                  [[i + 1, match_title(m, lang), m.get("high_point_code", ""), f"{m['score']:.2f}", m["reason"]]
                   for i, m in enumerate(matches)])
    if history:
        doc.heading(SAY("conversation", lang), 2)
        for turn in history:
            who = SAY("client" if turn.get("role") == "user" else "guide", lang)
            doc.paragraph(f"{who}: {turn.get('content', '')}")
    doc.spacer(10)
    doc.paragraph(SAY("attribution", lang), "subtitle")
    return doc.build()


def _flagged(doc: PdfDocument, flagged: list[Mapping[str, Any]], lang: str) -> None:
    passages = [str(p["text"]) for p in flagged]
    if passages:
        doc.paragraph(flagged_note(len(passages), lang))
        for passage in passages:
            doc.paragraph(f"⚠ {SAY('flag', lang)}: “{' '.join(passage.split())}”", "subtitle")


def _riasec(doc: PdfDocument, scores: Mapping[str, int], evidence: Mapping[str, list[str]], lang: str) -> None:
    doc.heading(SAY("radar", lang), 2)
    doc.radar_chart([f"{t} {type_name(t, lang)}" for t in RIASEC], [float(scores.get(t, 0)) for t in RIASEC],
                    height=240)
    doc.table([SAY("type", lang), SAY("score", lang), SAY("evidence", lang)],
              [[f"{t} · {type_name(t, lang)}", scores.get(t, 0), " / ".join(evidence.get(t, [])[:3]) or "—"]
               for t in RIASEC])


def _without_title(markdown: str) -> str:
    """The report's own '# title' line repeats the PDF's title; the rest goes in as it is."""
    lines = markdown.strip().splitlines()
    return "\n".join(lines[1:] if lines and lines[0].startswith("# ") else lines)
