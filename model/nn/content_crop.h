#pragma once
// Where the drawing is on a long canvas: the window along the long side, never shorter than the
// short side, that holds everything drawn on the background (api/letterbox.h CropRect).
// Letterboxing a 3:1 slide shrinks its objects to a third of what a square canvas gives them;
// cropping the empty background first keeps them as large as on a square. The short side is never
// cut, so an object's size relative to it (what "small" and "large" mean) does not change.
#include "model/core/letterbox.h"

#include <cstdint>

namespace cl {

// rgb: (height, width, 3) bytes, row-major. Returns the whole image when nothing can be cut
// (square-ish canvases, drawings that span the canvas, nothing found on the background).
CropRect contentCrop(const uint8_t* rgb, int64_t height, int64_t width);

} // namespace cl
