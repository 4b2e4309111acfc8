// eval --head-importance (api/head_importance.h): which heads matter on held-out scenes, most
// important first, as a table or JSON; --store keeps the figures in the checkpoint for the
// Heads panel.
#include "app/cli/commands.h"
#include "model/evaluation/checkpoint_tools.h"
#include "model/core/errors.h"
#include "model/evaluation/head_importance_eval.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <numeric>

namespace cl::cli {

void runHeadImportanceEval(Captioner& model, const HeadImportanceEvalOptions& o, bool json,
                           const std::string& storeIn) {
    const auto r = evaluateHeadImportance(model, o, [&](int64_t done, int64_t total) {
        if (!json)
            std::fprintf(stderr, "\rdecoded without %lld / %lld heads",
                         static_cast<long long>(done), static_cast<long long>(total));
    });
    if (!storeIn.empty())
        storeHeadImportance(storeIn, r.toJson());
    if (json) {
        std::cout << nlohmann::json::parse(r.toJson()).dump(2) << "\n";
        return;
    }
    std::fprintf(stderr, "\n");
    std::printf("%lld held-out scenes, exact match %.1f%% with every head on (%.1f s)\n",
                static_cast<long long>(r.scenes), 100 * r.exactMatch, r.seconds);
    std::printf("%-22s %12s %16s %14s\n", "head switched off", "drop (nats)", "captions changed",
                "exact without");
    std::vector<size_t> order(r.meanDrop.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return r.meanDrop[a] > r.meanDrop[b]; });
    for (size_t i : order) {
        const auto k = int64_t(i);
        const auto l = k / (2 * r.heads), kind = (k / r.heads) % 2, h = k % r.heads;
        std::printf("%-22s %12.3f %15.1f%% %13.1f%%\n", headName(l, kind, h).c_str(), r.meanDrop[i],
                    100 * r.captionsChanged[i], 100 * r.exactWithout[i]);
    }
    if (!storeIn.empty())
        std::printf("stored in %s\n", terminalSafe(storeIn).c_str());
}

} // namespace cl::cli
