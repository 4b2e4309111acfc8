#include "model/explain/patching.h"

#include "model/explain/head_outputs.h"

#include <stdexcept>

namespace cl::explain {

namespace {

// Every activation a site names, of one run: (T, W) or (H, T, W) per layer.
struct Record {
    torch::Tensor memory;                   // (M, W)
    std::vector<torch::Tensor> resid;       // L + 1 of (T, W)
    std::vector<torch::Tensor> self, cross; // L of (H, T, W)
    std::vector<torch::Tensor> ffn;         // L of (T, W)
};

// The sites each row of a batch patches, and the run they are copied from.
struct Patches {
    const Record* source = nullptr;
    std::vector<std::vector<PatchSite>> rows;

    template <typename Apply> void forEach(PatchKind kind, int64_t layer, bool cross, Apply f) const {
        for (size_t n = 0; n < rows.size(); ++n)
            for (const PatchSite& s : rows[n])
                if (s.kind == kind && s.layer == layer && (kind != PatchKind::Head || s.cross == cross))
                    f(int64_t(n), s);
    }
};

void patchHeads(torch::Tensor& heads, const Patches& p, int64_t layer, bool cross) {
    p.forEach(PatchKind::Head, layer, cross, [&](int64_t n, const PatchSite& s) {
        const auto& from = cross ? p.source->cross : p.source->self;
        heads[n][s.head - 1][s.position] = from[size_t(layer - 1)][s.head - 1][s.position];
    });
}

void patchStream(torch::Tensor& x, const Patches& p, PatchKind kind, int64_t layer,
                 const std::vector<torch::Tensor>& from, size_t index) {
    p.forEach(kind, layer, false, [&](int64_t n, const PatchSite& s) {
        x[n][s.position] = from[index][s.position];
    });
}

// The decoder over a batch of N rows, each patched as `p` says; logits (N, T, V). With
// `record`, the activations of row 0 are kept.
// With `hooks` (one row), each of its tensors is added where its activation is: the metric's
// gradient with respect to a hook is its gradient with respect to that activation.
torch::Tensor run(CaptioningTransformerImpl& model, const torch::Tensor& memory,
                  const torch::Tensor& ids, const Patches& p, Record* record,
                  const Record* hooks = nullptr) {
    const int64_t n = memory.size(0), t = ids.size(1);
    auto x = model.positional_encoding(model.embedding(ids)).expand({n, t, -1}).clone();
    const auto mask = torch::tril(torch::ones({t, t}, x.options()));
    if (p.source)
        patchStream(x, p, PatchKind::Resid, 0, p.source->resid, 0);
    if (hooks)
        x = x + hooks->resid[0];
    if (record) {
        record->memory = memory[0];
        record->resid.push_back(x[0]);
    }
    for (size_t i = 0; i < model.transformer->size(); ++i) {
        auto& layer = model.transformer->layer(i);
        const auto l = int64_t(i) + 1;
        auto self = headOutputs(*layer.self_attn, x, x, mask);
        if (p.source)
            patchHeads(self, p, l, false);
        if (hooks)
            self = self + hooks->self[i];
        auto h = layer.norm_self(x + self.sum(1) + layer.self_attn->proj->bias);
        auto cross = headOutputs(*layer.cross_attn, h, memory, {});
        if (p.source)
            patchHeads(cross, p, l, true);
        if (hooks)
            cross = cross + hooks->cross[i];
        h = layer.norm_cross(h + cross.sum(1) + layer.cross_attn->proj->bias);
        auto f = torch::nn::functional::linear(h, layer.fc1()->weight, layer.fc1()->bias);
        f = layer.gelu() ? torch::gelu(f) : torch::relu(f);
        f = torch::nn::functional::linear(f, layer.fc2()->weight, layer.fc2()->bias);
        if (p.source)
            patchStream(f, p, PatchKind::Ffn, l, p.source->ffn, i);
        if (hooks)
            f = f + hooks->ffn[i];
        x = layer.norm_ffn(h + f);
        if (p.source)
            patchStream(x, p, PatchKind::Resid, l, p.source->resid, i + 1);
        if (hooks)
            x = x + hooks->resid[i + 1];
        if (record) {
            record->self.push_back(self[0]);
            record->cross.push_back(cross[0]);
            record->ffn.push_back(f[0]);
            record->resid.push_back(x[0]);
        }
    }
    return model.output(x);
}

// Every site of the model for a caption of T positions over M memory cells.
std::vector<PatchSite> everySite(int64_t layers, int64_t heads, int64_t t, int64_t cells) {
    std::vector<PatchSite> out;
    for (int64_t c = 0; c < cells; ++c)
        out.push_back({PatchKind::ImageCell, -1, -1, false, -1, c, 0});
    for (int64_t l = 0; l <= layers; ++l)
        for (int64_t q = 0; q < t; ++q)
            out.push_back({PatchKind::Resid, l, -1, false, q, -1, 0});
    for (int64_t l = 1; l <= layers; ++l)
        for (bool cross : {false, true})
            for (int64_t h = 1; h <= heads; ++h)
                for (int64_t q = 0; q < t; ++q)
                    out.push_back({PatchKind::Head, l, h, cross, q, -1, 0});
    for (int64_t l = 1; l <= layers; ++l)
        for (int64_t q = 0; q < t; ++q)
            out.push_back({PatchKind::Ffn, l, -1, false, q, -1, 0});
    return out;
}

struct Pair {
    Record clean, corrupt;
    double cleanDiff = 0, corruptDiff = 0;
};

Pair recordPair(CaptioningTransformerImpl& model, const torch::Tensor& cleanMemory,
                const torch::Tensor& corruptMemory, const torch::Tensor& ids, int64_t position,
                int64_t cleanWord, int64_t corruptWord) {
    Pair pair;
    auto diff = [&](const torch::Tensor& logits) {
        return (logits[0][position][cleanWord] - logits[0][position][corruptWord]).item<double>();
    };
    pair.cleanDiff = diff(run(model, cleanMemory, ids, {}, &pair.clean));
    pair.corruptDiff = diff(run(model, corruptMemory, ids, {}, &pair.corrupt));
    if (std::abs(pair.cleanDiff - pair.corruptDiff) < 1e-6)
        throw std::invalid_argument("the clean and corrupted runs give the same logit difference "
                                    "there: nothing to restore");
    return pair;
}

// The normalised metric of every row patched as `rows` say.
std::vector<double> measure(CaptioningTransformerImpl& model, const Pair& pair,
                            const torch::Tensor& ids, int64_t position, int64_t cleanWord,
                            int64_t corruptWord, bool noising,
                            std::vector<std::vector<PatchSite>> rows) {
    const Record& base = noising ? pair.clean : pair.corrupt;
    const Record& source = noising ? pair.corrupt : pair.clean;
    auto memory = base.memory.unsqueeze(0).repeat({int64_t(rows.size()), 1, 1});
    for (size_t n = 0; n < rows.size(); ++n)
        for (const PatchSite& s : rows[n])
            if (s.kind == PatchKind::ImageCell)
                memory[int64_t(n)][s.cell] = source.memory[s.cell];
    const auto logits = run(model, memory, ids, Patches{&source, std::move(rows)}, nullptr);
    const auto diff = logits.select(1, position).select(1, cleanWord) -
                      logits.select(1, position).select(1, corruptWord);
    const auto restored = (diff.to(torch::kDouble) - pair.corruptDiff) /
                          (pair.cleanDiff - pair.corruptDiff);
    return std::vector<double>(restored.data_ptr<double>(),
                               restored.data_ptr<double>() + restored.numel());
}

// One activation of a run as a site names it.
torch::Tensor at(const Record& r, const PatchSite& s) {
    switch (s.kind) {
    case PatchKind::ImageCell:
        return r.memory[s.cell];
    case PatchKind::Resid:
        return r.resid[size_t(s.layer)][s.position];
    case PatchKind::Head:
        return (s.cross ? r.cross : r.self)[size_t(s.layer - 1)][s.head - 1][s.position];
    case PatchKind::Ffn:
        return r.ffn[size_t(s.layer - 1)][s.position];
    }
    return {};
}

Record zeroHooks(const Record& like) {
    auto zero = [](const torch::Tensor& t) { return torch::zeros_like(t).requires_grad_(true); };
    Record h{zero(like.memory), {}, {}, {}, {}};
    for (const auto& t : like.resid)
        h.resid.push_back(zero(t));
    for (size_t l = 0; l < like.self.size(); ++l) {
        h.self.push_back(zero(like.self[l]));
        h.cross.push_back(zero(like.cross[l]));
        h.ffn.push_back(zero(like.ffn[l]));
    }
    return h;
}

std::vector<torch::Tensor> tensorsOf(const Record& r) {
    std::vector<torch::Tensor> out{r.memory};
    out.insert(out.end(), r.resid.begin(), r.resid.end());
    out.insert(out.end(), r.self.begin(), r.self.end());
    out.insert(out.end(), r.cross.begin(), r.cross.end());
    out.insert(out.end(), r.ffn.begin(), r.ffn.end());
    return out;
}

// Attribution patching (Nanda 2023): the metric's change for each site estimated to first order,
// (source - base) . d metric / d activation, from one forward and one backward pass of the base
// run; normalised as `restored` is.
void estimate(CaptioningTransformerImpl& model, const Pair& pair, const torch::Tensor& ids,
              int64_t position, int64_t cleanWord, int64_t corruptWord, bool noising,
              std::vector<PatchSite>& sites) {
    const Record& base = noising ? pair.clean : pair.corrupt;
    const Record& source = noising ? pair.corrupt : pair.clean;
    torch::AutoGradMode grad(true);
    const Record hooks = zeroHooks(base);
    const auto logits =
        run(model, (base.memory + hooks.memory).unsqueeze(0), ids, {}, nullptr, &hooks);
    const auto metric = logits[0][position][cleanWord] - logits[0][position][corruptWord];
    const auto inputs = tensorsOf(hooks);
    const auto grads = torch::autograd::grad({metric}, inputs, {}, false, false, true);
    Record g{grads[0], {}, {}, {}, {}};
    size_t k = 1;
    for (size_t i = 0; i < hooks.resid.size(); ++i)
        g.resid.push_back(grads[k++]);
    for (auto* part : {&g.self, &g.cross, &g.ffn})
        for (size_t i = 0; i < hooks.self.size(); ++i)
            part->push_back(grads[k++]);
    const double scale = pair.cleanDiff - pair.corruptDiff;
    for (PatchSite& s : sites) {
        const auto gradient = at(g, s);
        const double change =
            gradient.defined() ? ((at(source, s) - at(base, s)) * gradient).sum().item<double>() : 0.0;
        s.estimated = (noising ? 1.0 : 0.0) + change / scale;
    }
}

double pearson(const std::vector<PatchSite>& sites) {
    double n = double(sites.size()), sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    for (const auto& s : sites) {
        sx += s.restored;
        sy += s.estimated;
        sxx += s.restored * s.restored;
        syy += s.estimated * s.estimated;
        sxy += s.restored * s.estimated;
    }
    const double cov = sxy - sx * sy / n, vx = sxx - sx * sx / n, vy = syy - sy * sy / n;
    return vx > 0 && vy > 0 ? cov / std::sqrt(vx * vy) : 0.0;
}

torch::Tensor idsOf(const std::vector<int64_t>& fed, const torch::Tensor& like) {
    return torch::tensor(fed, torch::kLong).to(like.device()).unsqueeze(0);
}

void checkPosition(const std::vector<int64_t>& fed, int64_t position) {
    if (position < 0 || position >= int64_t(fed.size()))
        throw std::invalid_argument("position " + std::to_string(position) +
                                    " is not in the caption (0 to " +
                                    std::to_string(fed.size() - 1) + ")");
}

} // namespace

PatchNumbers patchEverySite(CaptioningTransformerImpl& model, const torch::Tensor& cleanMemory,
                            const torch::Tensor& corruptMemory, const std::vector<int64_t>& fed,
                            int64_t position, int64_t cleanWord, int64_t corruptWord,
                            bool noising) {
    checkPosition(fed, position);
    torch::NoGradGuard noGrad;
    const auto ids = idsOf(fed, cleanMemory);
    const Pair pair =
        recordPair(model, cleanMemory, corruptMemory, ids, position, cleanWord, corruptWord);
    PatchNumbers out{pair.cleanDiff, pair.corruptDiff,
                     everySite(int64_t(model.transformer->size()), model.config().numHeads,
                               int64_t(fed.size()), cleanMemory.size(1))};
    std::vector<std::vector<PatchSite>> rows;
    for (const PatchSite& s : out.sites)
        rows.push_back({s});
    const auto restored =
        measure(model, pair, ids, position, cleanWord, corruptWord, noising, std::move(rows));
    for (size_t i = 0; i < out.sites.size(); ++i)
        out.sites[i].restored = restored[i];
    estimate(model, pair, ids, position, cleanWord, corruptWord, noising, out.sites);
    out.estimateCorrelation = pearson(out.sites);
    return out;
}

std::vector<PatchSite> attributionPatch(CaptioningTransformerImpl& model,
                                        const torch::Tensor& cleanMemory,
                                        const torch::Tensor& corruptMemory,
                                        const std::vector<int64_t>& fed, int64_t position,
                                        int64_t cleanWord, int64_t corruptWord, bool noising) {
    checkPosition(fed, position);
    torch::NoGradGuard noGrad;
    const auto ids = idsOf(fed, cleanMemory);
    const Pair pair =
        recordPair(model, cleanMemory, corruptMemory, ids, position, cleanWord, corruptWord);
    auto sites = everySite(int64_t(model.transformer->size()), model.config().numHeads,
                           int64_t(fed.size()), cleanMemory.size(1));
    estimate(model, pair, ids, position, cleanWord, corruptWord, noising, sites);
    return sites;
}

double patchTogether(CaptioningTransformerImpl& model, const torch::Tensor& cleanMemory,
                     const torch::Tensor& corruptMemory, const std::vector<int64_t>& fed,
                     int64_t position, int64_t cleanWord, int64_t corruptWord, bool noising,
                     const std::vector<PatchSite>& sites) {
    checkPosition(fed, position);
    torch::NoGradGuard noGrad;
    const auto ids = idsOf(fed, cleanMemory);
    const Pair pair =
        recordPair(model, cleanMemory, corruptMemory, ids, position, cleanWord, corruptWord);
    return measure(model, pair, ids, position, cleanWord, corruptWord, noising, {sites}).front();
}

} // namespace cl::explain
