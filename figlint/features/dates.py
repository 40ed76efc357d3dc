"""Date and time tick labels ("Jan 2020", "Mar 30", "2019-06", "Q3 2018", "'98") as times.

The numeric reading (features/numbers.py) takes years printed as plain numbers but no
other date: a time axis labelled with months, days or quarters is no value axis to it.
`time_axes(an)` reads the horizontal rows of such labels as axes whose values are days,
so that their direction can be checked as a numeric axis' is (FL403: a time axis whose
dates increase leftward). Month names are English, as the OCR models read them.
"""

from __future__ import annotations


from figlint.features.axes import Axis, Token, make_axis
from figlint.lazyre import lazy

_MONTHS = {m: i for i, ms in enumerate((
    ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
    ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
    ("oct", "october"), ("nov", "november"), ("dec", "december")), start=1) for m in ms}
_MON = r"(?P<mon>[a-z]{3,9})\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
# a month's two-digit year needs a mark ("Jan-20", "Jan '20"): "Mar 30" is a day
_YEAR = r"(?:\s*(?P<year>\d{4})|\s*[/-]\s*(?P<year2>\d{2})|\s*(?P<year3>['\u2019]\d{2}))"
_FORMS = [lazy(p) for p in (  # compiled when a date axis is first read
    rf"^{_MON}$",  # Jan
    rf"^{_MON},?{_YEAR}$",  # Jan 2020, Jan-20, Jan '20
    rf"^(?P<year>\d{{4}})[\s/-]*{_MON}$",  # 2020 Jan
    rf"^{_MON}\s*{_DAY}(?:,?\s*(?P<year>\d{{4}}))?$",  # Mar 30, Mar 30, 2020
    rf"^{_DAY}[\s-]*{_MON}(?:,?[\s-]*(?P<year>\d{{4}}|\d{{2}}))?$",  # 30 Mar, 30-Mar-20
    r"^(?P<year>\d{4})-(?P<num>\d{1,2})(?:-(?P<day>\d{1,2}))?$",  # 2020-01, 2020-01-15
    r"^(?P<num>\d{1,2})/(?P<year>\d{4})$",  # 01/2020
    r"^q(?P<q>[1-4])[\s'\u2019-]*(?P<year>\d{4}|\d{2})$",  # Q1 2019, Q1'19
    r"^(?P<year>\d{4})[\s-]*q(?P<q>[1-4])$",  # 2019 Q1
    r"^['\u2019](?P<year>\d{2})$",  # '98
)]
MIN_LABELS = 4


def _year(text: str) -> int:
    y = int(text.lstrip("'\u2019"))
    if y < 100:  # two digits: the nearer century ('98 is 1998, '05 is 2005)
        y += 2000 if y <= 40 else 1900
    return y


def parse_date(text: str) -> tuple[float, str] | None:
    """(days since year 0, kind) of a date label; kind says what it names: "month" (a month
    without a year), "day" (a day of a month without a year) or "date" (with its year)."""
    t = text.strip().strip(".,;:").lower()
    if not t or len(t) > 20:
        return None
    for form in _FORMS:
        m = form.match(t)
        if m is None:
            continue
        g = m.groupdict()
        g["year"] = g.get("year") or g.get("year2") or g.get("year3")
        if g.get("mon") is not None:
            month = _MONTHS.get(g["mon"])
            if month is None:
                return None
        elif g.get("num") is not None:
            month = int(g["num"])
        elif g.get("q") is not None:
            month = 3 * int(g["q"]) - 2
        else:
            month = 1
        day = int(g["day"]) if g.get("day") else 1
        if not (1 <= month <= 12 and 1 <= day <= 31):
            return None
        days = (month - 1) * 30.44 + day - 1
        if g.get("year") is None:
            return days, ("day" if g.get("day") else "month")
        return _year(g["year"]) * 365.25 + days, "date"
    return None


def time_axes(an) -> list[Axis]:
    """Horizontal rows of at least four date labels of one kind, as axes of days (side set)."""
    u = an.unit_size
    dated = []
    for t in an.tokens:
        if t.rotated or t.value is not None:
            continue
        d = parse_date(t.text)
        if d is not None:
            dated.append((t, d))
    rows: list[list] = []
    for t, d in sorted(dated, key=lambda p: p[0].cy):
        if rows and abs(t.cy - rows[-1][-1][0].cy) <= 0.5 * u and rows[-1][-1][1][1] == d[1]:
            rows[-1].append((t, d))
        else:
            rows.append([(t, d)])
    out = []
    for row in rows:
        if len(row) < MIN_LABELS:
            continue
        toks = [Token(t.text, t.bbox, t.conf, d[0], "date") for t, d in row]
        ax = make_axis("x", toks)
        if ax is None or ax.scale != "linear" or len(ax.ticks) < MIN_LABELS:
            continue
        ax.side = "bottom" if ax.cross > an.mid_y else "top"
        out.append(ax)
    return out
