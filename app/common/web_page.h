#pragma once
// One self-contained interactive web page of a caption (issue 40): the image as a data URI, the
// caption, every attention matrix, the decoding steps and the positional encoding as JSON inside
// the page's own HTML, CSS and JavaScript (resources/web/page.html). No network, no other file.
#include "model/api/captioner.h"

#include <string>

namespace cl {

struct WebPageInput {
    CaptionTrace trace;  // decoded with every attention matrix
    ModelInfo model;     // its config places the attention grid over the image
    std::string png;     // the image, PNG bytes
    int64_t imageWidth = 0, imageHeight = 0;
    std::string name;    // the input's name, shown under the caption
    // What the page opens on (a lesson's selection): the word, the layer (-1: the last) and the
    // head (-1: the head average).
    int64_t step = 0, layer = -1, head = -1;
    // A lesson's panel: the page opens scrolled to its part (attention, decode, pe); empty: the top.
    std::string focus;
};

// The page's HTML. Throws std::invalid_argument for a trace without attention or an image model
// without its image.
std::string webPage(const WebPageInput& in);

// RFC 4648 base64 (the image's data URI).
std::string base64(const std::string& bytes);

} // namespace cl
