#pragma once
// The caption's half of the out-of-world check (world_stats.h is the image's half). A model
// shown something from outside its world still answers in its own words, but two things give it
// away: the answer stops being a sentence of the world ("a large circle circle circle ..."), or
// it names a colour the image does not hold (a page of black text captioned "a large blue
// square"). Torch-free; the shapes world's grammar and colour regions (api/scene.h).
#include <cstdint>
#include <string>
#include <vector>

namespace cl {

// Whether `words` is a sentence of the shapes world: "a SIZE COLOUR SHAPE", then optionally a
// relation ("left of", "right of", "above", "below") and a second object, then optionally "and"
// and a third.
bool isWorldSentence(const std::vector<std::string>& words);

// The largest 8-connected region of pixels whose colour lies within the name `colour`
// (api/scene.h's hue region widened by 10 degrees either side, chroma at least 0.12, value at
// least 0.45 times the region's floor), counted in a view of the image area-averaged until its
// short side is at most 128 px.
// -1 for a word that is not a colour name.
int64_t colourEvidence(const uint8_t* rgb, int64_t height, int64_t width,
                       const std::string& colour);

struct CaptionCheck {
    double score = 0;   // above 1: the caption gives the image away as out of world
    std::string reason; // "" or "sentence" or "colour"
    std::string colour; // with "colour": the name the image does not hold
};
// Not a sentence: score 10. Otherwise the weakest named colour's evidence e gives 5 / max(e, 0.5)
// (below 5 px: above 1; none at all: 10).
CaptionCheck checkCaption(const std::vector<std::string>& words, const uint8_t* rgb,
                          int64_t height, int64_t width);

} // namespace cl
