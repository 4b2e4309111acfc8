#include "ui/animation/gif_writer.h"

#include <QCoreApplication>

#include <gif_lib.h>
#include <libimagequant.h>

#include <algorithm>
#include <memory>

namespace cl::ui {

namespace {

struct LiqFree {
    void operator()(liq_attr* a) const { liq_attr_destroy(a); }
    void operator()(liq_histogram* h) const { liq_histogram_destroy(h); }
    void operator()(liq_image* i) const { liq_image_destroy(i); }
    void operator()(liq_result* r) const { liq_result_destroy(r); }
};
template <typename T> using Liq = std::unique_ptr<T, LiqFree>;

class Text {
    Q_DECLARE_TR_FUNCTIONS(cl::ui::Animation)
};

// RGBA bytes, as libimagequant wants them, kept alive while its image points at them.
struct Rgba {
    QImage pixels;
    Liq<liq_image> image;
};

int gifWrite(GifFileType* gif, const GifByteType* data, int n) {
    static_cast<QByteArray*>(gif->UserData)->append(reinterpret_cast<const char*>(data), n);
    return n;
}

// The smallest rectangle where `now` differs from `before` (both width x height indices);
// empty when nothing changed (a 1x1 rectangle is written then: GIF frames are never empty).
QRect changed(const std::vector<uint8_t>& before, const std::vector<uint8_t>& now, int w, int h) {
    int x0 = w, y0 = h, x1 = -1, y1 = -1;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (before[size_t(y) * w + x] != now[size_t(y) * w + x]) {
                x0 = std::min(x0, x);
                x1 = std::max(x1, x);
                y0 = std::min(y0, y);
                y1 = std::max(y1, y);
            }
    return x1 < 0 ? QRect(0, 0, 1, 1) : QRect(QPoint(x0, y0), QPoint(x1, y1));
}

bool putLoop(GifFileType* gif) {
    const GifByteType app[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    const GifByteType loop[] = {1, 0, 0}; // sub-block 1, repeat count 0 = forever
    return EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
           EGifPutExtensionBlock(gif, sizeof app, app) == GIF_OK &&
           EGifPutExtensionBlock(gif, sizeof loop, loop) == GIF_OK &&
           EGifPutExtensionTrailer(gif) == GIF_OK;
}

bool putFrame(GifFileType* gif, const std::vector<uint8_t>& idx, int w, QRect r, int delayMs) {
    GraphicsControlBlock gcb{};
    gcb.DisposalMode = DISPOSE_DO_NOT; // each frame paints over the last
    gcb.TransparentColor = NO_TRANSPARENT_COLOR;
    gcb.DelayTime = std::clamp((delayMs + 5) / 10, 2, 65535);
    GifByteType ext[4];
    const size_t n = EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, int(n), ext) != GIF_OK ||
        EGifPutImageDesc(gif, r.x(), r.y(), r.width(), r.height(), false, nullptr) != GIF_OK)
        return false;
    std::vector<GifPixelType> line(size_t(r.width()));
    for (int y = r.top(); y <= r.bottom(); ++y) {
        std::copy_n(idx.begin() + std::ptrdiff_t(size_t(y) * w + r.x()), r.width(), line.begin());
        if (EGifPutLine(gif, line.data(), r.width()) != GIF_OK)
            return false;
    }
    return true;
}

} // namespace

GifResult encodeGif(const AnimationFrames& a) {
    if (a.frames.empty() || a.frames.size() != a.delaysMs.size())
        return {{}, Text::tr("an animation needs frames, each with its time")};
    const int w = a.frames.front().width(), h = a.frames.front().height();
    if (w < 1 || h < 1 || w > 4096 || h > 4096)
        return {{}, Text::tr("an animation's frames must be 1 to 4096 pixels a side")};
    Liq<liq_attr> attr(liq_attr_create());
    liq_set_max_colors(attr.get(), 256);
    liq_set_speed(attr.get(), 5);
    Liq<liq_histogram> hist(liq_histogram_create(attr.get()));
    std::vector<Rgba> rgba(a.frames.size());
    for (size_t i = 0; i < a.frames.size(); ++i) {
        if (a.frames[i].size() != a.frames.front().size())
            return {{}, Text::tr("an animation's frames must all have one size")};
        rgba[i].pixels = a.frames[i].convertToFormat(QImage::Format_RGBA8888);
        rgba[i].image.reset(liq_image_create_rgba(attr.get(), rgba[i].pixels.constBits(), w, h, 0));
        if (!rgba[i].image ||
            liq_histogram_add_image(hist.get(), attr.get(), rgba[i].image.get()) != LIQ_OK)
            return {{}, Text::tr("the colours of frame %1 could not be counted").arg(i + 1)};
    }
    liq_result* raw = nullptr;
    if (liq_histogram_quantize(hist.get(), attr.get(), &raw) != LIQ_OK)
        return {{}, Text::tr("no palette could be made for the animation")};
    Liq<liq_result> result(raw);
    liq_set_dithering_level(result.get(), 0.8f);

    std::vector<std::vector<uint8_t>> indices(a.frames.size(), std::vector<uint8_t>(size_t(w) * h));
    for (size_t i = 0; i < a.frames.size(); ++i)
        if (liq_write_remapped_image(result.get(), rgba[i].image.get(), indices[i].data(),
                                     indices[i].size()) != LIQ_OK)
            return {{}, Text::tr("frame %1 could not be mapped to the palette").arg(i + 1)};
    const liq_palette* palette = liq_get_palette(result.get());
    std::vector<GifColorType> colours(256, GifColorType{0, 0, 0});
    for (unsigned c = 0; c < palette->count && c < 256; ++c)
        colours[c] = {palette->entries[c].r, palette->entries[c].g, palette->entries[c].b};
    std::unique_ptr<ColorMapObject, void (*)(ColorMapObject*)> map(
        GifMakeMapObject(256, colours.data()), GifFreeMapObject);

    GifResult out;
    int err = 0;
    GifFileType* gif = EGifOpen(&out.bytes, gifWrite, &err);
    if (!gif || !map)
        return {{}, Text::tr("the GIF writer could not start")};
    EGifSetGifVersion(gif, true);
    bool ok = EGifPutScreenDesc(gif, w, h, 8, 0, map.get()) == GIF_OK && putLoop(gif);
    for (size_t i = 0; ok && i < indices.size(); ++i) {
        const QRect r = i == 0 ? QRect(0, 0, w, h) : changed(indices[i - 1], indices[i], w, h);
        ok = putFrame(gif, indices[i], w, r, a.delaysMs[i]);
    }
    if (EGifCloseFile(gif, &err) != GIF_OK || !ok)
        return {{},
                Text::tr("the GIF could not be written (%1)")
                    .arg(QString::fromUtf8(GifErrorString(err)))};
    return out;
}

} // namespace cl::ui
