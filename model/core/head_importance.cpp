#include "model/core/head_importance.h"

namespace cl {

std::string headName(int64_t layer, int64_t kind, int64_t head) {
    return "layer " + std::to_string(layer + 1) + (kind == 0 ? " self H" : " cross H") +
           std::to_string(head + 1);
}

} // namespace cl
