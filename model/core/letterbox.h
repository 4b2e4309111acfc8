#pragma once
// Fitting an image of any shape to the encoder's square input without distorting it, and
// mapping the encoder's grid cells back onto the image's own pixels. Pure arithmetic: model/
// preprocessing, the pointing game, the CLI's JSON and ui/ overlays all use these.
#include <cstdint>

namespace cl {

// The part of the image the encoder sees (model/nn/content_crop.h): the whole image unless its
// long side holds only background beyond the drawing.
struct CropRect {
    int64_t x0 = 0, y0 = 0, width = 0, height = 0;
};

// Where an image lands in the square input: scaled by one factor so its long side fills the
// input, centred; the rest is padding (model/nn/image_encoder.cpp fills it with the mean colour
// of the image's outermost pixels, so a white slide pads with white).
struct Letterbox {
    int64_t side = 0;                 // the input's side
    int64_t x0 = 0, y0 = 0;           // the image's top-left corner in the input
    int64_t width = 0, height = 0;    // the image's size in the input
};
Letterbox letterbox(int64_t imageWidth, int64_t imageHeight, int64_t side);

// The encoder's grid over the original image: cell (gx, gy) covers image pixels
// [x0 + gx cellW, x0 + (gx + 1) cellW) x [y0 + gy cellH, ...). Cells over padding lie partly or
// wholly outside the image. Squashed inputs (older models) give x0 = y0 = 0, cells W/g by H/g.
struct GridMap {
    int64_t grid = 0;
    double x0 = 0, y0 = 0, cellW = 0, cellH = 0;
    double centreX(int64_t cell) const { return x0 + (cell % grid + 0.5) * cellW; }
    double centreY(int64_t cell) const { return y0 + (cell / grid + 0.5) * cellH; }
};
// `seen`: the part of the image the encoder saw (CropRect); empty (width 0): all of it.
GridMap gridMap(int64_t imageWidth, int64_t imageHeight, int64_t grid, int64_t side,
                bool letterboxed, const CropRect& seen = {});

inline Letterbox letterbox(int64_t w, int64_t h, int64_t side) {
    Letterbox b{side, 0, 0, side, side};
    if (w >= h)
        b.height = w > 0 ? (h * side + w / 2) / w : side;
    else
        b.width = h > 0 ? (w * side + h / 2) / h : side;
    b.width = b.width < 1 ? 1 : b.width;
    b.height = b.height < 1 ? 1 : b.height;
    b.x0 = (side - b.width) / 2;
    b.y0 = (side - b.height) / 2;
    return b;
}

inline GridMap gridMap(int64_t w, int64_t h, int64_t grid, int64_t side, bool letterboxed,
                       const CropRect& seen) {
    if (!letterboxed || grid <= 0 || side <= 0 || w <= 0 || h <= 0)
        return {grid, 0, 0, grid > 0 ? double(w) / grid : 0, grid > 0 ? double(h) / grid : 0};
    const bool cropped = seen.width > 0 && seen.height > 0;
    const int64_t cw = cropped ? seen.width : w, ch = cropped ? seen.height : h;
    const Letterbox b = letterbox(cw, ch, side);
    const double sx = double(cw) / b.width, sy = double(ch) / b.height; // image px per input px
    const double ox = cropped ? double(seen.x0) : 0, oy = cropped ? double(seen.y0) : 0;
    return {grid, ox - b.x0 * sx, oy - b.y0 * sy, double(side) / grid * sx,
            double(side) / grid * sy};
}

} // namespace cl
