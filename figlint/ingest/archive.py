"""A zip of a paper's sources (Overleaf's "Download source"), unpacked safely.

The archive is untrusted. It is extracted into a fresh temporary directory
(removed when the process exits) and only if every member is safe: no
absolute path, no `..` component, no drive letter, no symlink or device
entry, at most MAX_MEMBERS members and MAX_TOTAL_BYTES uncompressed in all
(counted while writing, so a member that lies about its size in the header is
cut off too), and no member that compresses better than MAX_RATIO (a zip
bomb). Anything else is an InputError: the whole archive is refused, never
half-extracted and linted. The extracted folder is then linted as a paper
folder; a zip holding one top-level folder (Overleaf's layout for some
projects) is read as that folder.
"""

from __future__ import annotations

import atexit
import os
import shutil
import stat
import tempfile
import zipfile
from multiprocessing.util import Finalize
from pathlib import Path, PurePosixPath

from figlint.errors import InputError

MAX_MEMBERS = 5000
MAX_TOTAL_BYTES = 512 * 1024 * 1024
MAX_RATIO = 200  # uncompressed / compressed, per member above 1 MB
_CHUNK = 1 << 20
_made: list[str] = []


def _cleanup() -> None:
    for d in _made:
        shutil.rmtree(d, ignore_errors=True)


atexit.register(_cleanup)


def _safe_name(name: str) -> PurePosixPath:
    norm = name.replace("\\", "/")
    p = PurePosixPath(norm)
    if norm.startswith("/") or (len(norm) > 1 and norm[1] == ":") or ".." in p.parts:
        raise InputError(f"unsafe path in archive: {name!r} (absolute or climbing out with '..')")
    return p


def extract(path: str) -> str:
    """Unpack the zip at `path` into a temporary directory; returns the paper folder in it."""
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable zip archive ({exc})") from None
    with zf:
        members = zf.infolist()
        if len(members) > MAX_MEMBERS:
            raise InputError(f"{path}: archive has {len(members)} members (at most {MAX_MEMBERS} are read)")
        declared = 0
        for m in members:
            _safe_name(m.filename)
            mode = (m.external_attr >> 16) & 0xFFFF
            kind = stat.S_IFMT(mode)  # 0 when the archiver recorded permissions only
            if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
                raise InputError(f"{path}: archive member {m.filename!r} is a link or a device, not a file")
            if m.flag_bits & 0x1:
                raise InputError(f"{path}: archive member {m.filename!r} is encrypted")
            declared += m.file_size
            if m.file_size > _CHUNK and m.compress_size and m.file_size / m.compress_size > MAX_RATIO:
                raise InputError(f"{path}: archive member {m.filename!r} expands {m.file_size // m.compress_size}x "
                                 f"(a zip bomb?); refused")
        if declared > MAX_TOTAL_BYTES:
            raise InputError(f"{path}: archive expands to {declared // (1024 * 1024)} MB "
                             f"(at most {MAX_TOTAL_BYTES // (1024 * 1024)} MB are read)")
        dest = tempfile.mkdtemp(prefix="figlint-zip-")
        _made.append(dest)
        # pool workers leave through multiprocessing's exit path, which skips atexit
        Finalize(None, shutil.rmtree, args=(dest,), kwargs={"ignore_errors": True}, exitpriority=1)
        total = 0
        try:
            for m in members:
                rel = _safe_name(m.filename)
                target = Path(dest, *rel.parts)
                if m.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(m) as src, open(target, "wb") as out:
                    while block := src.read(_CHUNK):
                        total += len(block)
                        if total > MAX_TOTAL_BYTES:
                            raise InputError(f"{path}: archive expands to more than "
                                             f"{MAX_TOTAL_BYTES // (1024 * 1024)} MB; refused")
                        out.write(block)
        except InputError:
            shutil.rmtree(dest, ignore_errors=True)
            raise
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
            shutil.rmtree(dest, ignore_errors=True)
            raise InputError(f"{path}: archive cannot be extracted ({exc})") from None
    entries = [e for e in os.listdir(dest) if not e.startswith(("__MACOSX", "."))]
    if len(entries) == 1 and os.path.isdir(os.path.join(dest, entries[0])):
        return os.path.join(dest, entries[0])
    return dest
