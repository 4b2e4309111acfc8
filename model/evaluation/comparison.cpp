#include "model/evaluation/comparison.h"

#include "model/core/errors.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace cl {

namespace {

std::vector<CaptionTrace> decode(Captioner& m, const RgbImage& image,
                                 const std::vector<float>& features, const DecodeOptions& opt) {
    if (m.info().config.memory == MemoryKind::ImageGrid) {
        if (image.pixels.empty())
            throw std::runtime_error("this model captions images; open an image");
        return m.captionImages({image}, opt);
    }
    if (features.empty())
        throw std::runtime_error("this model reads feature vectors; open a feature file (.npy or .h5) or a course folder");
    return m.captionFeatures(features, 1, opt);
}

// Model i teacher-forced on the tokens of `other` (its own vocabulary's ids, <UNK> for words it
// lacks). Returns the trace and which tokens were known.
std::pair<CaptionTrace, std::vector<bool>> forceOn(Captioner& m, const CaptionTrace& other,
                                                   const RgbImage& image,
                                                   const std::vector<float>& features,
                                                   const std::vector<uint8_t>& headsOff) {
    const auto& vocab = m.vocab();
    const int64_t unk = vocab.id("<UNK>");
    DecodeOptions opt;
    opt.headsOff = headsOff;
    opt.stopAtEnd = false;
    opt.topK = 5;
    std::vector<bool> known;
    for (const auto& s : other.steps) {
        const int64_t id = vocab.id(s.token);
        if (id < 0 && unk < 0)
            break; // nothing to stand in for an unknown word: score the prefix before it
        opt.forcedPrefix.push_back(id >= 0 ? id : unk);
        known.push_back(id >= 0);
    }
    if (opt.forcedPrefix.empty())
        return {CaptionTrace{}, known};
    opt.maxLength = static_cast<int64_t>(opt.forcedPrefix.size());
    auto trace = decode(m, image, features, opt).front();
    known.resize(trace.steps.size());
    return {std::move(trace), known};
}

} // namespace

std::vector<ModelRun> compareModels(const std::vector<Captioner*>& models, const RgbImage& image,
                                    const std::vector<float>& features, int64_t maxLength,
                                    bool teacherForce,
                                    const std::vector<std::vector<uint8_t>>& headsOff) {
    std::vector<ModelRun> runs(models.size());
    const auto offOf = [&](size_t i) {
        return i < headsOff.size() ? headsOff[i] : std::vector<uint8_t>();
    };
    for (size_t i = 0; i < models.size(); ++i) {
        DecodeOptions opt;
        opt.maxLength = maxLength;
        opt.headsOff = offOf(i);
        try {
            runs[i].own = decode(*models[i], image, features, opt).front();
        } catch (const std::exception& e) {
            runs[i].error = errorLine(e);
        }
    }
    for (size_t i = 0; i < models.size(); ++i) {
        runs[i].forced.resize(models.size());
        runs[i].known.resize(models.size());
        if (!runs[i].error.empty())
            continue;
        for (size_t j = 0; j < models.size(); ++j) {
            if (i == j) {
                runs[i].forced[j] = runs[i].own;
                runs[i].known[j].assign(runs[i].own.steps.size(), true);
            } else if (teacherForce && runs[j].error.empty()) {
                auto [trace, known] = forceOn(*models[i], runs[j].own, image, features, offOf(i));
                runs[i].forced[j] = std::move(trace);
                runs[i].known[j] = std::move(known);
            }
        }
    }
    return runs;
}

double jensenShannon(const float* p, const float* q, size_t n) {
    double sp = 0, sq = 0;
    for (size_t i = 0; i < n; ++i) {
        sp += std::max(0.f, p[i]);
        sq += std::max(0.f, q[i]);
    }
    if (sp <= 0 || sq <= 0)
        return 0.0;
    double js = 0;
    for (size_t i = 0; i < n; ++i) {
        const double a = std::max(0.f, p[i]) / sp, b = std::max(0.f, q[i]) / sq;
        const double m = 0.5 * (a + b);
        if (a > 0)
            js += 0.5 * a * std::log2(a / m);
        if (b > 0)
            js += 0.5 * b * std::log2(b / m);
    }
    return std::clamp(js, 0.0, 1.0);
}

std::vector<float> attentionRow(const CaptionTrace& trace, AttentionKind kind, int64_t layer,
                                int64_t head, int64_t t) {
    if (kind == AttentionKind::Cross)
        return trace.crossRow(layer, head, t);
    std::vector<float> row(static_cast<size_t>(t + 1));
    for (int64_t k = 0; k <= t; ++k)
        row[static_cast<size_t>(k)] = trace.selfWeight(layer, head, t, k);
    return row;
}

namespace {

int64_t squareSide(int64_t tokens) {
    auto side = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(tokens))));
    return side * side == tokens ? side : 0;
}

} // namespace

std::vector<float> refinedRow(const std::vector<float>& row, int64_t side, int64_t common) {
    if (side == common || side <= 0 || common % side != 0 ||
        static_cast<int64_t>(row.size()) != side * side)
        return row;
    const int64_t k = common / side;
    const float share = 1.f / static_cast<float>(k * k);
    std::vector<float> out(static_cast<size_t>(common * common));
    for (int64_t y = 0; y < common; ++y)
        for (int64_t x = 0; x < common; ++x)
            out[static_cast<size_t>(y * common + x)] =
                row[static_cast<size_t>(y / k * side + x / k)] * share;
    return out;
}

int64_t commonGridSide(int64_t tokensA, int64_t tokensB) {
    constexpr int64_t kMostCells = 4096;
    const int64_t a = squareSide(tokensA), b = squareSide(tokensB);
    if (a <= 1 || b <= 1)
        return 0;
    const int64_t common = a / std::gcd(a, b) * b;
    return common * common <= kMostCells ? common : 0;
}

HeadDivergence headDivergence(const CaptionTrace& a, const CaptionTrace& b, AttentionKind kind) {
    HeadDivergence d;
    const int64_t steps = static_cast<int64_t>(std::min(a.steps.size(), b.steps.size()));
    const bool cross = kind == AttentionKind::Cross;
    const int64_t common = cross ? commonGridSide(a.memoryTokens, b.memoryTokens) : 0;
    if (steps == 0)
        d.reason = "no decode steps to compare";
    else if (cross && a.memoryTokens == 1 && b.memoryTokens == 1)
        d.reason = "cross-attention over a single feature vector is always 1: nothing to compare";
    else if (cross && a.memoryTokens != b.memoryTokens && common == 0)
        d.reason = "the models attend to different memories (" + std::to_string(a.memoryTokens) +
                   " vs " + std::to_string(b.memoryTokens) + " tokens)";
    if (!d.reason.empty())
        return d;
    const int64_t sideA = cross ? squareSide(a.memoryTokens) : 0;
    const int64_t sideB = cross ? squareSide(b.memoryTokens) : 0;
    auto rowOf = [&](const CaptionTrace& tr, int64_t side, int64_t pair, int64_t t) {
        auto row = attentionRow(tr, kind, pair / tr.heads, pair % tr.heads, t);
        return cross ? refinedRow(row, side, common) : row;
    };
    d.rows = a.layers * a.heads;
    d.cols = b.layers * b.heads;
    d.values.assign(static_cast<size_t>(d.rows * d.cols), 0.0);
    for (int64_t r = 0; r < d.rows; ++r)
        for (int64_t c = 0; c < d.cols; ++c) {
            double sum = 0;
            for (int64_t t = 0; t < steps; ++t) {
                const auto p = rowOf(a, sideA, r, t);
                const auto q = rowOf(b, sideB, c, t);
                sum += jensenShannon(p.data(), q.data(), p.size());
            }
            d.values[static_cast<size_t>(r * d.cols + c)] = sum / static_cast<double>(steps);
        }
    return d;
}

std::pair<std::vector<bool>, std::vector<bool>> diffWords(const std::vector<std::string>& a,
                                                          const std::vector<std::string>& b) {
    const size_t n = a.size(), m = b.size();
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            lcs[i][j] =
                a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::vector<bool> da(n, true), db(m, true);
    for (size_t i = 0, j = 0; i < n && j < m;) {
        if (a[i] == b[j]) {
            da[i++] = false;
            db[j++] = false;
        } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
            ++i;
        } else {
            ++j;
        }
    }
    return {da, db};
}

} // namespace cl
