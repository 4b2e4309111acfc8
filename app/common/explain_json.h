#pragma once
// The CLI's JSON form of a word's explanation (captionlens-cli explain).
#include "model/core/explain.h"

#include <nlohmann/json.hpp>

namespace cl {

// {"caption", "word", "token", "probability", "image_width", "image_height", "methods": [{
// "method", "title", "side", "values" (side x side, row-major, signed), "peak": {"index", "x",
// "y"} (image pixels), "pointing_hit" (true, false or null), "deletion", "insertion",
// "deletion_auc", "insertion_auc", "completeness_gap" and "gradient_samples" (Integrated
// Gradients), "ms"}]}
nlohmann::json explanationToJson(const Explanation& e);

} // namespace cl
