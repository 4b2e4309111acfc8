#pragma once
// Which heads matter (Michel et al. 2019, "Are Sixteen Heads Really Better than One?"; issue 18
// part 5): what switching one head off, alone, costs the caption. For an input, the model's
// caption with every head on is scored teacher-forced as one batch of 1 + layers x 2 x heads
// rows: row 0 with every head on, each other row with one head's output zeroed. A head's drop is
// log p(caption) with every head on minus log p(caption) without it (nats; above 0: it helps).
// Greedy decoding without the head gives the same caption exactly when every step's most likely
// token, teacher-forced, is still the caption's; `changesAt` names the first step that differs.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cl {

struct HeadImportance {
    int64_t layers = 0, heads = 0;
    std::vector<std::string> tokens; // the caption scored, <END> included when it was reached
    double logProb = 0;              // log p(tokens), every head on
    // Indexed as DecodeOptions::headsOff: (layer * 2 + kind) * heads + head, kind 0 self, 1 cross.
    std::vector<double> drop;
    std::vector<int64_t> changesAt; // first step whose greedy token differs; -1: none
    size_t index(int64_t layer, int64_t kind, int64_t head) const {
        return static_cast<size_t>((layer * 2 + kind) * heads + head);
    }
};

// "layer 1 self H2": a head's name in tables and charts (1-based, as the app shows them).
std::string headName(int64_t layer, int64_t kind, int64_t head);

// eval --head-importance: the same over held-out shapes scenes, and what each head's removal
// does to exact match (every caption decoded again without it).
} // namespace cl
