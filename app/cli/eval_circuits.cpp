// eval --circuits (evaluation/circuits_eval.h): activation patching scored on ground truth, per
// kind of counterfactual change, as a table or JSON.
#include "app/cli/commands.h"
#include "model/evaluation/checkpoint_tools.h"
#include "model/evaluation/circuits_eval.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace cl::cli {

void runCircuitsEval(Captioner& model, const CircuitsEvalOptions& o, bool json,
                     const std::string& storeIn) {
    const auto r = evaluateCircuits(model, o);
    if (!storeIn.empty())
        storeCircuits(storeIn, r.toJson());
    if (json) {
        std::cout << nlohmann::json::parse(r.toJson()).dump(2) << "\n";
        return;
    }
    std::printf("%-9s %6s %9s %19s %19s %11s   %s\n", "change", "pairs", "unchanged",
                "restoration on obj", "attention on obj", "attrib. r", "heads restoring most");
    for (const auto& k : r.kinds) {
        std::printf("%-9s %6lld %9lld %18.1f%% %18.1f%% %11.2f  ", changeName(k.change).c_str(),
                    static_cast<long long>(k.pairs), static_cast<long long>(k.unchanged),
                    100 * k.onObject, 100 * k.attentionOnObject, k.correlation);
        for (size_t i = 0; i < std::min<size_t>(3, k.heads.size()); ++i)
            std::printf(" L%lld %s H%lld %.2f", static_cast<long long>(k.heads[i].layer),
                        k.heads[i].cross ? "cross" : "self",
                        static_cast<long long>(k.heads[i].head), k.heads[i].mean);
        std::printf("\n");
    }
}

} // namespace cl::cli
