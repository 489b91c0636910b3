"""Resume files: read PDF, DOCX, TXT or Markdown with langchain-community loaders and tell a resume from other
text (iCan's uploads and the recruiter's imports go through the same loaders)."""

from __future__ import annotations

import re
import tempfile
import warnings
from pathlib import Path

from pipelines.core.file_errors import unreadable_reason

MAX_RESUME_BYTES = 5 * 1024 * 1024
MAX_RESUME_CHARS = 60_000
SUFFIXES = {".pdf": "PDF", ".docx": "DOCX", ".txt": "text", ".md": "Markdown", ".markdown": "Markdown"}
_SECTION_CUES = ("education", "experience", "employment", "work history", "skills", "projects", "objective",
                 "summary", "certification", "languages", "教育", "学历", "工作经历", "工作经验", "实习", "技能",
                 "项目", "求职意向", "自我评价", "个人信息", "简历", "resume", "curriculum vitae", "profile")
DATE_RANGE = re.compile(r"((?:19|20)\d{2})(?:[./年-]\s*\d{1,2}月?)?\s*(?:-|–|—|~|to|至|到)\s*"
                         r"((?:19|20)\d{2}|present|now|current|today|至今|现在)", re.I)


class ResumeFileError(ValueError):
    """An uploaded resume cannot be used; the message says why, in words a counselor can act on."""


def not_a_resume_reason(name: str) -> str:
    return (f"{name} does not look like a resume (no sections such as education, experience or skills, and no "
            "dates)")


def not_a_resume_message(name: str) -> str:
    """The note a running session keeps about a text it could not use as a resume."""
    return f"{not_a_resume_reason(name)}; the session goes on without it."


def read_resume(name: str, data: bytes) -> str:
    """The text of an uploaded resume, or ResumeFileError saying why it cannot be used."""
    suffix = Path(name).suffix.lower()
    if suffix not in SUFFIXES:
        raise ResumeFileError(f"{name}: only PDF, DOCX, TXT or Markdown resumes can be read")
    if len(data) > MAX_RESUME_BYTES:
        raise ResumeFileError(f"{name} is {len(data) / 1024 / 1024:.1f} MB; resumes up to "
                              f"{MAX_RESUME_BYTES // 1024 // 1024} MB can be read")
    if not data.strip():
        raise ResumeFileError(f"{name} is empty")
    if suffix == ".pdf" and not data.startswith(b"%PDF"):
        raise ResumeFileError(f"{name} is not a PDF file (it may be renamed or damaged)")
    if suffix == ".docx" and not data.startswith(b"PK"):
        raise ResumeFileError(f"{name} is not a Word .docx file (old .doc files are not supported)")
    with tempfile.TemporaryDirectory(prefix="stepwise-resume-") as tmp:
        path = Path(tmp) / f"resume{suffix}"
        path.write_bytes(data)
        try:
            text = _load(path, suffix)
        except Exception as exc:  # noqa: BLE001 - any loader failure is an unreadable file to the user
            raise ResumeFileError(f"{name} {unreadable_reason(exc, SUFFIXES[suffix])}") from exc
    text = re.sub(r"[ \t]+", " ", text).strip()
    if not text:
        raise ResumeFileError(f"{name} has no text to read (a scanned image needs OCR first)")
    if len(text) > MAX_RESUME_CHARS:  # refused, not cut: the end of a resume (skills, languages) matters too
        raise ResumeFileError(f"{name} has {len(text):,} characters of text; resumes up to {MAX_RESUME_CHARS:,} "
                              "characters can be read")
    if not looks_like_resume(text):
        raise ResumeFileError(not_a_resume_reason(name))
    return text


def _load(path: Path, suffix: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # langchain-community announces its sunset on import
        from langchain_community.document_loaders import Docx2txtLoader, PyPDFLoader, TextLoader
    if suffix == ".pdf":
        loader = PyPDFLoader(str(path), mode="single")
    elif suffix == ".docx":
        loader = Docx2txtLoader(str(path))
    else:
        loader = TextLoader(str(path), autodetect_encoding=True)
    return "\n".join(doc.page_content for doc in loader.load())


def looks_like_resume(text: str) -> bool:
    """Two resume section headings, or one and a date range, in a text of some length."""
    lowered = (text or "").lower()
    cues = sum(1 for cue in _SECTION_CUES if cue in lowered)
    dated = bool(DATE_RANGE.search(lowered))
    return len(lowered) >= 60 and (cues >= 2 or (cues >= 1 and dated))
