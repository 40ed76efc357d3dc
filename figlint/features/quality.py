"""Raster image quality: is it line art, how sharp are its edges, does it carry JPEG artefacts.

Measured on an image's own pixels (never on a resampled copy: resampling blurs
edges and moves JPEG's 8×8 grid), for the rules FL104 (blurry raster) and FL105
(JPEG artefacts on line art):

- **line art**: a chart, diagram or screenshot, not a photograph — one flat
  background colour covers a large share of the picture.
- **edge sharpness**: at strong edges (a local contrast of at least 60 grey
  levels in a 9×9 window) the steepest one-pixel step divided by that contrast.
  A crisp edge changes within one or two pixels (about 0.5–1); an edge smeared
  by a Gaussian blur of sigma s peaks near 1/(2.5 s). The 90th percentile over
  edge pixels is independent of how much of the picture is text or lines, and of
  its size, unlike the raw variance of the Laplacian, which is reported too.
- **mosquito noise**: JPEG's quantised DCT rings around sharp edges, the more the harder
  the edge. On line art the background next to an edge should be exactly the background
  colour; the share of background pixels 2–5 px from a hard edge (a local contrast of at
  least 100 grey levels: text, axes, dark lines) that deviate by 4–60 levels (and by
  8–60) is near 0 for a PNG chart and large for the same chart saved as a low-quality
  JPEG. Blur also spreads an edge into that zone, so ringing only
  counts in an image whose edges are still sharp. The same share next to any edge
  (``mosquito_all``, pictures included) tells ringing, which surrounds every edge, from
  faint content drawn along some hard edges only. Edges in or next to a picture region
  (32×32 tiles a quarter shaded or textured: a rendering, a photograph, such a part of a
  composite) are left out: those are a picture's outlines, and JPEG is right for pictures.
- **as printed**: an image printed finer than 300 DPI is measured again resampled to
  300 DPI (``at_print``): tones finer than that are averaged away in print.
- **blockiness**: the mean step across the 8×8 block boundaries divided by the
  mean step elsewhere, on flat regions (1 for no block structure).

The derived feature ``raster_quality`` applies these to a raster analysis' pixels;
the rules read each placed image's original pixels through ``placed_images``.
"""

from __future__ import annotations

from dataclasses import dataclass

from figlint.features import derived

# Larger images are measured on a centre crop of this many pixels: the measures are shares and
# percentiles over edge pixels, which a million pixels of a chart hold by the thousand, and a
# 4-megapixel crop cost 0.6-1 s of CPU per image (most of the LaTeX route's time on PNG charts).
MAX_PIXELS = 1_000_000

# A hard edge, around which ringing is measured: a local contrast (9x9) of this many grey levels.
HARD_EDGE = 100


@dataclass
class Quality:
    width: int
    height: int
    line_art: bool
    background_share: float
    background_light: bool  # the background colour is light (paper-like)
    colours: int  # 4-bit-per-channel colours covering at least 0.05 % of the picture
    edge_pixels: int
    sharpness: float | None  # 90th percentile step/contrast at strong edges (None: too few edges)
    laplacian_var: float
    mosquito: float | None  # share of near-edge background pixels off by 4-60 levels (None: too few)
    mosquito_strong: float | None  # the same, off by 8-60 levels
    blockiness: float | None
    # the same share as mosquito in the background 17-32 px from any edge (None: too little)
    mosquito_far: float | None = None
    # the dots per inch the image prints at (None: unknown), and where that is finer than
    # PRINT_DPI (prints_finer) the same measures of its pixels resampled to PRINT_DPI
    # (at_print_scale; None also for an image too small at that scale to measure)
    print_dpi: float | None = None
    at_print: "Quality | None" = None
    # share of the image in picture tiles or next to them (see _picture_tiles; None: not line art)
    picture_share: float | None = None
    # mosquito and mosquito_strong 2-5 px from any edge, not only hard ones outside pictures
    mosquito_all: float | None = None
    mosquito_all_strong: float | None = None

    def to_dict(self) -> dict:
        r = lambda v, n=3: None if v is None else round(float(v), n)  # noqa: E731
        return {"size": [self.width, self.height], "line_art": self.line_art,
                "background_share": r(self.background_share), "background_light": self.background_light,
                "colours": self.colours,
                "edge_pixels": self.edge_pixels, "sharpness": r(self.sharpness),
                "laplacian_var": r(self.laplacian_var, 1), "mosquito": r(self.mosquito), "mosquito_strong": r(self.mosquito_strong),
                "blockiness": r(self.blockiness), "mosquito_far": r(self.mosquito_far),
                "mosquito_all": r(self.mosquito_all), "mosquito_all_strong": r(self.mosquito_all_strong),
                "picture_share": r(self.picture_share), "print_dpi": r(self.print_dpi, 0), "at_print": None if self.at_print is None else self.at_print.to_dict()}


def measure(bgr) -> Quality | None:
    """Quality measures of a BGR (or grey) uint8 image; None for images too small to judge."""
    import cv2
    import numpy as np

    from figlint.features import pixels as P

    if bgr is None or bgr.ndim not in (2, 3) or min(bgr.shape[:2]) < 24:
        return None
    if bgr.ndim == 2:
        bgr = cv2.cvtColor(bgr, cv2.COLOR_GRAY2BGR)
    h, w = bgr.shape[:2]
    if h * w > MAX_PIXELS:
        f = (MAX_PIXELS / (h * w)) ** 0.5
        ch, cw = int(h * f), int(w * f)
        y0, x0 = (h - ch) // 2 // 8 * 8, (w - cw) // 2 // 8 * 8  # keep the 8×8 grid aligned
        bgr = bgr[y0:y0 + ch, x0:x0 + cw]
        h, w = bgr.shape[:2]
    bgr = np.ascontiguousarray(bgr)
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    total = h * w

    chans = P.planes(bgr)
    codes = P.colour_codes(chans, 4)
    counts = np.bincount(codes.ravel(), minlength=4096)
    colours = int(np.count_nonzero(counts >= 0.0005 * total))
    bg_code = int(counts.argmax())
    bg = P.masked_mean(chans, codes == bg_code)
    dev = P.deviation(chans, bg)
    near_bg = dev <= 3
    background_share = float(near_bg.mean())
    line_art = background_share >= 0.35
    background_light = bool(bg.min() >= 200)

    g = grey.astype(np.float32)
    k = np.ones((9, 9), np.uint8)
    contrast = cv2.dilate(grey, k).astype(np.float32) - cv2.erode(grey, k).astype(np.float32)
    dx = np.abs(np.diff(g, axis=1))[:-1, :]
    dy = np.abs(np.diff(g, axis=0))[:, :-1]
    step = np.maximum(dx, dy)
    c = contrast[:-1, :-1]
    edges = c >= 60
    # the steepest step of each edge: pixels whose step is the largest in their 3×3 neighbourhood
    peak = step >= cv2.dilate(step, np.ones((3, 3), np.uint8)) - 1e-3
    sel = edges & peak & (step > 0)
    n_edge = int(sel.sum())
    sharpness = float(np.percentile(step[sel] / c[sel], 90)) if n_edge >= 200 else None
    lap = float(cv2.Laplacian(grey, cv2.CV_64F).var())

    mosquito = mosquito_strong = mosquito_far = mosquito_all = mosquito_all_strong = None
    blockiness = None
    picture_share = None
    if line_art:
        strong = (step >= 40).astype(np.uint8)
        strong = np.pad(strong, ((0, 1), (0, 1)))
        dist = cv2.distanceTransform(1 - strong, cv2.DIST_L2, 3)
        # JPEG rings in proportion to an edge's contrast (the quantisation error of the DCT's
        # high frequencies grows with the step): ringing is looked for next to the hard edges,
        # of HARD_EDGE grey levels or more (text, axes, dark lines). Next to faint edges (the
        # dots of a pale dotted grid, translucent markers) the off-colour pixels are mostly the
        # anti-aliased rims of more such faint content, which JPEG leaves all but clean.
        # Nor next to the outline of a picture (a rendering, a photograph, a shaded scene on a
        # white ground, or such a part of a composite): JPEG is right for those, and their
        # outlines ring as any picture's do.
        picture = _picture_tiles(grey, near_bg)
        picture_share = float(picture.mean())
        hard = np.pad(((step >= 40) & (c >= HARD_EDGE) & ~picture[:-1, :-1]).astype(np.uint8), ((0, 1), (0, 1)))
        dist_hard = cv2.distanceTransform(1 - hard, cv2.DIST_L2, 3)
        ring = (dist_hard >= 2) & (dist_hard <= 5)
        # the background around edges: pixels whose wider neighbourhood is mostly background
        # (at least half of the 9x9 window: 41 of 81 pixels, counted exactly)
        bg_near = cv2.boxFilter(near_bg.view(np.uint8), cv2.CV_16U, (9, 9), normalize=False) >= 41
        zone = ring & bg_near
        nz = int(zone.sum())
        if nz >= 200:
            # A pixel of one of the picture's own flat colours is not noise: the white rim of a
            # marker or a white grid line on a grey panel sits near edges too. JPEG's ringing
            # makes scattered in-between values that are rarely any such exact colour.
            exact = (chans[0].astype(np.int32) << 16) | (chans[1].astype(np.int32) << 8) | chans[2]
            vals, cnt = np.unique(exact[::2, ::2], return_counts=True)
            own = vals[cnt >= 0.02 * cnt.sum()]

            def off_colour(where):
                """Pixels of `where` a little off the background (4-60 levels) in none of the
                picture's own flat colours."""
                o = where & (dev >= 4) & (dev <= 60)
                o[o] = ~np.isin(exact[o], own)
                return o

            off = off_colour(zone)
            mosquito = float(off.sum() / nz)
            mosquito_strong = float((off & (dev >= 8)).sum() / nz)
            # JPEG rings around every sharp edge, the hard ones most: the same share 2-5 px from
            # any edge is high too. Off-colour pixels gathered next to some hard edges only (a
            # faint translucent band drawn along a dark curve, the anti-aliased tips of a dense
            # histogram's spikes beside picture-like tiles) are content.
            zone_all = (dist >= 2) & (dist <= 5) & bg_near
            na = int(zone_all.sum())
            if na >= 200:
                off_all = off_colour(zone_all)
                mosquito_all = float(off_all.sum() / na)
                mosquito_all_strong = float((off_all & (dev >= 8)).sum() / na)
            # JPEG rings within the blocks that hold an edge (8x8, 16x16 for colour subsampled
            # 4:2:0): the background 17-32 px from any edge stays clean. Off-colour pixels as
            # common there as next to edges are the picture's own content (pale grid lines of
            # a 3D plot, shading), not ringing.
            far = (dist >= 17) & (dist <= 32) & bg_near
            nf = int(far.sum())
            if nf >= 200:
                off_far = off_colour(far)
                mosquito_far = float(off_far.sum() / nf)
        flat = (c < 40)
        if w >= 32 and h >= 32:
            boundary = (np.arange(dx.shape[1]) % 8) == 7
            d_in = dx[flat & ~boundary]  # row by row, as dx[:, ~boundary][flat[:, ~boundary]]
            d_at = dx[flat & boundary]
            if d_in.size > 1000 and d_at.size > 100:
                blockiness = float((d_at.mean() + 0.05) / (d_in.mean() + 0.05))
    return Quality(w, h, line_art, background_share, background_light, colours, n_edge, sharpness, lap, mosquito, mosquito_strong,
                   blockiness, mosquito_far, picture_share=picture_share, mosquito_all=mosquito_all,
                   mosquito_all_strong=mosquito_all_strong)


# Picture regions of an image (see _picture_tiles): tiles of this many pixels (a multiple of
# JPEG's 8x8 blocks), a tile being picture when this share of its pixels is shaded or textured.
PICTURE_TILE = 32
PICTURE_TILE_SHARE = 0.25


def _picture_tiles(grey, near_bg):
    """Where the image is a picture, and next to it: a bool mask of PICTURE_TILE tiles of which
    at least PICTURE_TILE_SHARE of the pixels are shaded or textured content — 4 px or more
    inside the content (away from any background pixel) and varying by 12 grey levels or more
    within 5x5 — with the tiles around them. Line art's content is strokes and text (within a
    few pixels of the background) and flat fills (even JPEG's noise varies less inside them); a
    rendering or a photograph is shaded or textured all through its area."""
    import cv2
    import numpy as np

    h, w = grey.shape
    inside = cv2.distanceTransform((~near_bg).view(np.uint8), cv2.DIST_L2, 3) >= 4
    k = np.ones((5, 5), np.uint8)
    varied = (cv2.dilate(grey, k).astype(np.int16) - cv2.erode(grey, k).astype(np.int16)) >= 12
    t = PICTURE_TILE
    ty, tx = -(-h // t), -(-w // t)
    pad = np.zeros((ty * t, tx * t), np.float32)
    pad[:h, :w] = inside & varied
    tiles = (pad.reshape(ty, t, tx, t).mean(axis=(1, 3)) >= PICTURE_TILE_SHARE).astype(np.uint8)
    tiles = cv2.dilate(tiles, np.ones((3, 3), np.uint8))
    return np.repeat(np.repeat(tiles.astype(bool), t, axis=0), t, axis=1)[:h, :w]


# Print resolution: finer pixels than this are not printed one by one. A printer renders tones
# (a pale halo of off-colour pixels next to a line is one) through a halftone screen of about
# 150 lines per inch, whose cells each print one tone: 300 DPI is twice that, the resolution
# journals ask of images, and what FL101 asks for. An image that prints denser is measured as
# it prints too, resampled to this resolution by averaging its pixels, as the screen does.
PRINT_DPI = 300.0


def print_dpi(printed, width_px: int, height_px: int) -> float | None:
    """Dots per inch an image of `width_px` x `height_px` prints at in a box of `printed`
    points (the lower of the two axes; None when the printed size is unknown)."""
    if not printed or printed[0] <= 0 or printed[1] <= 0:
        return None
    return min(width_px / (printed[0] / 72.0), height_px / (printed[1] / 72.0))


def prints_finer(dpi: float | None, target: float = PRINT_DPI) -> bool:
    """The image prints denser than `target` DPI (by more than 5 %)."""
    return dpi is not None and dpi > target * 1.05


def at_print_scale(bgr, dpi: float | None, target: float = PRINT_DPI):
    """The pixels resampled (area averaging) to `target` DPI when the image prints finer
    than that (prints_finer); None otherwise, its own pixels being what prints."""
    import cv2

    if not prints_finer(dpi, target):
        return None
    f = target / dpi
    h, w = bgr.shape[:2]
    return cv2.resize(bgr, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA)


def measure_placed(p) -> Quality | None:
    """Quality of a placed image's pixels (Placed), and, where it prints denser than PRINT_DPI
    at a known size, of its pixels as they print (Quality.at_print)."""
    q = measure(p.bgr)
    if q is None or not p.size_known:
        return q
    h, w = p.bgr.shape[:2]
    q.print_dpi = print_dpi(p.printed, w, h)
    if q.mosquito is None or q.mosquito_all is None:
        return q  # no ringing measured at its own pixels (not line art, or no edges): none as printed
    small = at_print_scale(p.bgr, q.print_dpi)
    if small is not None:
        q.at_print = measure(small)
    return q


def no_fine_detail(bgr, max_colours: int = 32) -> bool:
    """The picture has no detail that a low resolution could lose, so it prints sharp at any
    resolution: a few flat colours in blocks (a heatmap or confusion matrix drawn by
    `imshow`, its numbers and labels drawn as text on top; bars; plain shapes), or a smooth
    gradient (a colour bar, also as a strip one pixel thick). Text, lines and photographs have thin features, or many
    colours with sharp steps between neighbouring pixels. A thin feature is a pixel that
    differs from both its neighbours along a row or a column in the same direction (a
    1-pixel stroke) by more than 60 levels summed over the channels.
    """
    import numpy as np

    h, w = bgr.shape[:2]
    if h < 3 and w < 3:
        return False
    if h < 3 or w < 3:
        # A strip one or two pixels thick (the ramp of a colour bar or continuous legend,
        # stretched over its key) has no detail across it: only along it can a low resolution
        # lose any, so it is tested along its length, as a row.
        bgr = bgr if h < 3 else bgr.transpose(1, 0, 2)
        h, w = bgr.shape[:2]
    g = bgr.astype(np.int16)
    s = g.sum(axis=2)
    pairs = [(s[:, 1:-1] - s[:, :-2], s[:, 1:-1] - s[:, 2:])]
    if h >= 3:
        pairs.append((s[1:-1, :] - s[:-2, :], s[1:-1, :] - s[2:, :]))
    for a, b in pairs:
        if (((a > 60) & (b > 60)) | ((a < -60) & (b < -60))).mean() > 0.0005:
            return False
    steps = (np.abs(g[:, 1:] - g[:, :-1]).sum(axis=2) > 36).mean()
    if h >= 2:
        steps = max(steps, (np.abs(g[1:] - g[:-1]).sum(axis=2) > 36).mean())
    if steps <= 0.002:
        return True  # smooth: a gradient
    q = (g[..., 0] >> 4) << 8 | (g[..., 1] >> 4) << 4 | (g[..., 2] >> 4)
    counts = np.bincount(q.ravel(), minlength=4096)
    return int((counts >= 0.0005 * h * w).sum()) <= max_colours


@derived("raster_quality")
def raster_quality(an) -> Quality | None:
    """Quality of a raster analysis' pixels (analysed at their own size only: resampling blurs)."""
    m = an.marks
    if an.source != "raster" or getattr(m, "work", None) is None or getattr(m, "scale", 1.0) != 1.0:
        return None
    return measure(m.work)


@dataclass
class Placed:
    """One raster image of a figure, with its original pixels."""

    name: str
    bgr: object
    jpeg: bool  # stored JPEG-compressed (a .jpg file, a DCTDecode stream in a PDF)
    printed: tuple[float, float] | None  # points
    bbox: tuple[float, float, float, float] | None = None  # where it prints, in the figure's points
    size_known: bool = True  # False: `printed` is assumed (a standalone file recording no DPI)
    parts: tuple[str, ...] = ()  # a mosaic's tiles (their names), empty for one image
    # the part that prints when a clip cuts the image (\includegraphics[trim, clip], a
    # viewport): its pixels span `bbox`, of which only this shows (None: all of it)
    visible: tuple[float, float, float, float] | None = None


def placed_images(fig, paper, min_side_px: int = 48, names: set[str] | None = None, mosaics: bool = False):
    """The raster images of a figure, decoded at their own resolution (not rendered), one at a
    time: an iterator whose Placed's pixels (`bgr`) are dropped when the next image is asked
    for (a figure of several 40-megapixel photographs held them all at once; issue 14). A
    caller keeps what it measures, never the pixels.

    A figure file: the image itself. A PDF: each placed image's stream by xref. A LaTeX
    figure without a PDF: its raster graphics files. Images too large to decode
    (figlint/budget.py) or unreadable are left out; with `names`, only the PDF's placed
    images of those names are decoded. With `mosaics`, the tiles of one picture (see
    tile_groups) come as one Placed, assembled, naming its tiles in `parts`.
    """
    for placed in _placed_images(fig, paper, min_side_px, names, mosaics):
        yield placed
        placed.bgr = None


def _placed_images(fig, paper, min_side_px: int, names: set[str] | None, mosaics: bool = False):
    from pathlib import Path

    from figlint import budget

    if budget.skipped(fig):
        return  # over a size or time cap: reported once as FL011, not decoded here
    if "image_path" in fig.extra:
        p = str(fig.extra["image_path"])
        bgr = _load(p)
        if bgr is not None:
            im = fig.images[0] if fig.images else None
            box = (im.placed or im.bbox) if im is not None else None  # the whole file, of which a clip may print part
            from figlint.features import print_size_known

            yield Placed(Path(p).name, bgr, _is_jpeg_file(p), _size(box), box, print_size_known(fig),
                         visible=_visible(im) if im is not None else None)
        return
    pdf = getattr(paper, "pdf_path", None) if paper is not None else None
    if fig.images and pdf and fig.page:
        yield from _pdf_images(pdf, [i for i in fig.images if i.xref and (names is None or i.name in names)],
                               min_side_px, mosaics)
        return
    embedded = fig.extra.get("embedded_files") or {}
    if embedded:
        # LaTeX sources alone: bitmaps inside the PDF graphics placed, by xref in their own file
        by_file: dict[str, list] = {}
        for i in fig.images:
            if i.name in embedded and i.xref and (names is None or i.name in names):
                by_file.setdefault(embedded[i.name], []).append(i)
        for path, imgs in by_file.items():
            yield from _pdf_images(path, imgs, min_side_px, mosaics)
    files = fig.extra.get("raster_files") or {}
    if embedded and not files:
        return
    if files:
        # LaTeX sources alone: the files placed by ingest/placement.py, at their placed size
        for k, path in sorted(files.items(), key=lambda kv: int(kv[0])):
            im = fig.images[int(k)] if int(k) < len(fig.images) else None
            if im is None or (names is not None and im.name not in names):
                continue
            if min(im.width_px, im.height_px) < min_side_px or im.width_px * im.height_px > budget.MAX_DECODE_PIXELS:
                continue
            bgr = _load(path)
            if bgr is not None:
                # the file's pixels span the whole placed image, of which a clip may print a part
                box = im.placed or im.bbox
                yield Placed(im.name, bgr, _is_jpeg_file(path), _size(box), box, visible=_visible(im))
        return
    root = Path(paper.root) if paper is not None and paper.root else Path(".")
    for name in fig.graphics:
        p = Path(name)
        p = p if p.is_absolute() else root / p
        if p.suffix.lower() in (".png", ".jpg", ".jpeg") and p.is_file():
            bgr = _load(str(p))
            if bgr is not None and min(bgr.shape[:2]) >= min_side_px:
                yield Placed(p.name, bgr, _is_jpeg_file(str(p)), None)


def inline_images(paper, page: int, imgs):
    """(image, pixels) for each of `imgs` set inline in a page's content (BI ... EI: no XObject,
    so no xref to decode it by), found among the page's image blocks (one reading of the page)
    by pixel size and printed box; pixels are BGR as printed on white (raster.on_white, as for
    an image with a soft mask), one image at a time. Images not found are left out."""
    import numpy as np

    from figlint import budget

    pdf = getattr(paper, "pdf_path", None) if paper is not None else None
    imgs = [im for im in imgs if im.width_px * im.height_px <= budget.MAX_DECODE_PIXELS]
    if not pdf or not page or not imgs:
        return
    try:
        import pymupdf

        from figlint.features.raster import on_white, pixmap_bgr
        from figlint.ingest.mupdf import open_pdf
        from figlint.model import overlap_share, union

        # only the images' own boxes are read (other images of the page are not decoded)
        clip = pymupdf.Rect(union(im.placed or im.bbox for im in imgs)) + (-1, -1, 1, 1)
        with open_pdf(pdf) as doc:
            blocks = [b for b in doc[page - 1].get_text("dict", flags=pymupdf.TEXT_PRESERVE_IMAGES, clip=clip)["blocks"]
                      if b.get("type") == 1]
    except Exception:  # noqa: BLE001 - an image we cannot decode is left out
        return
    for im in imgs:
        b = next((b for b in blocks if (b.get("width"), b.get("height")) == (im.width_px, im.height_px)
                  and overlap_share(b["bbox"], im.placed or im.bbox) >= 0.5), None)
        if b is None:
            continue
        try:
            pix = pymupdf.Pixmap(b["image"])
            alpha = None
            if pix.alpha:
                alpha = np.frombuffer(pix.samples_mv, np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, -1].copy()
            bgr = pixmap_bgr(pix)  # the alpha kept apart above
            if b.get("mask"):
                mask = pymupdf.Pixmap(b["mask"])
                alpha = np.frombuffer(mask.samples_mv, np.uint8).reshape(mask.height, mask.width, mask.n)[:, :, 0]
            if alpha is not None and alpha.shape == bgr.shape[:2]:
                bgr = on_white(bgr, alpha, out=bgr)
        except Exception:  # noqa: BLE001
            continue
        yield im, bgr


def _pdf_images(pdf: str, imgs, min_side_px: int, mosaics: bool):
    """Placed: the images of `imgs` (placed in the PDF `pdf`), pictures in tiles assembled
    first when `mosaics`; images under min_side_px or over the decode cap are left out."""
    from figlint import budget

    if mosaics:
        groups, imgs = tile_groups(imgs)
        for group in groups:
            yield from _mosaic_from_pdf(pdf, group)
    imgs = [i for i in imgs if min(i.width_px, i.height_px) >= min_side_px
            and i.width_px * i.height_px <= budget.MAX_DECODE_PIXELS]
    if imgs:
        yield from _from_pdf(pdf, imgs)


def _visible(im):
    """The part of a clipped image that prints (its bbox), or None when all of it does."""
    return im.bbox if im.placed is not None and tuple(im.placed) != tuple(im.bbox) else None


def _size(box):
    return None if box is None else (box[2] - box[0], box[3] - box[1])


def _load(path: str):
    """The image's pixels, None when unreadable. An image over the decode cap raises
    budget.FigureSkipped, which the engine turns into FL011 for the figure."""
    from figlint.features.raster import load_bgr

    try:
        return load_bgr(path)
    except Exception:  # noqa: BLE001 - unreadable images are reported by ingestion
        return None


def _is_jpeg_file(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(3) == b"\xff\xd8\xff"
    except OSError:
        return False


# Tiles of one picture: a renderer that exports a picture in pieces (MATLAB's OpenGL export
# writes a 3D rendering as a grid of 113 x 105 px images, some JPEG, some not) prints them edge
# to edge at one scale. Edges meet within this share of one pixel.
TILE_GAP_PX = 0.25


def _scale(im) -> tuple[float, float]:
    box = im.placed or im.bbox
    return im.width_px / max(box[2] - box[0], 1e-9), im.height_px / max(box[3] - box[1], 1e-9)


def _abut(a, b) -> bool:
    """Do two images' printed boxes share an edge (one beside or under the other, spanning
    the same rows or columns), at the same pixel scale?"""
    (ax, ay), (bx, by) = _scale(a), _scale(b)
    if abs(ax - bx) > 0.01 * ax or abs(ay - by) > 0.01 * ay:
        return False
    ra, rb = a.placed or a.bbox, b.placed or b.bbox
    gx, gy = TILE_GAP_PX / ax, TILE_GAP_PX / ay
    side = (abs(ra[2] - rb[0]) <= gx or abs(rb[2] - ra[0]) <= gx) and abs(ra[1] - rb[1]) <= gy \
        and abs(ra[3] - rb[3]) <= gy
    stacked = (abs(ra[3] - rb[1]) <= gy or abs(rb[3] - ra[1]) <= gy) and abs(ra[0] - rb[0]) <= gx \
        and abs(ra[2] - rb[2]) <= gx
    return side or stacked


def tile_groups(imgs) -> tuple[list[list], list]:
    """(groups of images that are the tiles of one picture, the other images). Tiles are
    images whose whole boxes (before any clip) print edge to edge, each beside or under
    another one of the same height or width, at one pixel scale; a group holds at least two.
    A clip may cut the outer tiles (the picture cut to the column)."""
    whole = list(imgs)
    parent = list(range(len(whole)))

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    def box(k: int):
        return whole[k].placed or whole[k].bbox

    order = sorted(range(len(whole)), key=lambda k: box(k)[0])
    for n, a in enumerate(order):  # boxes sorted by left edge: a neighbour starts before a's right edge ends
        ra = box(a)
        for b in order[n + 1:]:
            if box(b)[0] > ra[2] + 1.0:
                break
            if _abut(whole[a], whole[b]):
                parent[find(a)] = find(b)
    members: dict[int, list] = {}
    for k, im in enumerate(whole):
        members.setdefault(find(k), []).append(im)
    groups = [g for g in members.values() if len(g) >= 2]
    grouped = {id(im) for g in groups for im in g}
    return groups, [i for i in imgs if id(i) not in grouped]


def _mosaic_from_pdf(pdf: str, tiles):
    """One Placed: the tiles pasted at their places on a white canvas at their pixel scale, cut
    to what prints; none when the picture is over the decode cap or no tile decodes."""
    from figlint import budget
    from figlint.features.raster import decode_pdf_image

    sx, sy = _scale(tiles[0])
    x0, y0 = min(t.bbox[0] for t in tiles), min(t.bbox[1] for t in tiles)
    x1, y1 = max(t.bbox[2] for t in tiles), max(t.bbox[3] for t in tiles)
    w, h = round((x1 - x0) * sx), round((y1 - y0) * sy)
    if w * h > budget.MAX_DECODE_PIXELS or w < 1 or h < 1:
        return
    try:
        import numpy as np

        from figlint.ingest.mupdf import open_pdf

        doc = open_pdf(pdf)
    except Exception:  # noqa: BLE001
        return
    canvas = None
    jpeg = False
    with doc:
        for t in tiles:
            try:
                arr = decode_pdf_image(doc, t.xref)
                jpeg |= "DCTDecode" in doc.xref_get_key(t.xref, "Filter")[1]
            except Exception:  # noqa: BLE001 - a tile we cannot decode stays white
                continue
            if arr is None:
                continue
            if canvas is None:
                canvas = np.full((h, w, 3), 255, np.uint8)
            whole = t.placed or t.bbox  # the tile's pixels span this box; the canvas what prints
            c, r = round((whole[0] - x0) * sx), round((whole[1] - y0) * sy)
            part = arr[max(0, -r): max(0, h - r), max(0, -c): max(0, w - c)]
            r, c = max(r, 0), max(c, 0)
            canvas[r:r + part.shape[0], c:c + part.shape[1]] = part
    if canvas is None:
        return
    names = tuple(t.name or f"xref {t.xref}" for t in tiles)
    yield Placed(f"{names[0]} and {len(tiles) - 1} more tiles", canvas, jpeg, (x1 - x0, y1 - y0),
                 (x0, y0, x1, y1), parts=names)


def _from_pdf(pdf: str, imgs):
    """Placed: each image of `imgs` (by xref) decoded from the PDF `pdf`, one at a time."""
    from figlint.features.raster import decode_pdf_image

    try:
        from figlint.ingest.mupdf import open_pdf

        doc = open_pdf(pdf)
    except Exception:  # noqa: BLE001
        return
    with doc:
        seen = set()
        for im in imgs:
            if im.xref in seen:
                continue
            seen.add(im.xref)
            try:
                # an image with a soft mask is measured as printed on white, as its file is
                jpeg = "DCTDecode" in doc.xref_get_key(im.xref, "Filter")[1]
                arr = decode_pdf_image(doc, im.xref)
            except Exception:  # noqa: BLE001 - an image we cannot decode is left out
                continue
            if arr is not None:
                # the pixels span the whole placed image, of which a clip may print a part
                box = im.placed or im.bbox
                yield Placed(im.name or f"xref {im.xref}", arr, jpeg, _size(box), box, visible=_visible(im))
            del arr  # not held while the caller reads the next one
