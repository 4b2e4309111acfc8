// The C++ model against goldens of tests/reference.py (the seed code in PyTorch), tolerance 1e-5.
#include "tests/test_util.h"

#include "model/core/vocabulary.h"
#include "model/decode/fast_decode.h"
#include "model/decode/greedy.h"
#include "model/decode/step_choice.h"
#include "model/io/checkpoint.h"
#include "model/io/model_io.h"
#include "model/io/pickle_reader.h"
#include "model/nn/attention_cpu.h"
#include "model/nn/batched_matmul.h"
#include "model/nn/fast_weights.h"
#include "model/nn/image_encoder.h"

#include "tests/test_main.h"
#include <set>

using namespace cl;

namespace {

pickle::Value load(const char* name) {
    return pickle::loadFile(cltest::dataPath(name));
}

torch::Tensor get(const pickle::Value& d, const std::string& key) {
    const auto* v = d.find(key);
    if (!v || v->kind != pickle::Value::Kind::Tensor)
        throw std::runtime_error("golden lacks " + key);
    return v->tensor;
}

struct Tiny {
    Vocabulary vocab;
    CaptioningTransformer model{nullptr};
};

Tiny tinyModel(const std::string& layout) {
    const auto sd = readStateDict(cltest::dataPath(("course_" + layout + ".pt").c_str()));
    Tiny t;
    t.vocab = Vocabulary({"<NULL>", "<START>", "<END>", "<UNK>", "a", "red", "blue", "circle",
                          "square", "left", "of", "right"});
    Checkpoint ck;
    ck.config = courseConfig(sd, t.vocab.size(), 2, detectLayout(sd));
    ck.stateDict = sd;
    t.model = buildModel(ck, t.vocab.nullId());
    return t;
}

} // namespace

class TestReference : public QObject {
    Q_OBJECT
  private slots:
    void multiHeadAttention();
    void positionalEncoding();
    void positionalEncodingInvariants();
    void forward_data();
    void forward();
    void decoderLayerWithGridMemory_data() { forward_data(); }
    void decoderLayerWithGridMemory();
    void greedyMatchesSeedSample_data() { forward_data(); }
    void greedyMatchesSeedSample();
    void cachedDecodeMatchesFullRerun_data() { forward_data(); }
    void cachedDecodeMatchesFullRerun();
    void batchOneFastPathMatchesBatched_data() { forward_data(); }
    void batchOneFastPathMatchesBatched();
    void fastWeightsFollowParameterChanges();
    void tokenChoiceMatchesAten_data();
    void tokenChoiceMatchesAten();
    void devicePathMatchesFullRerun_data() { forward_data(); }
    void devicePathMatchesFullRerun();
    void stateDictKeyNames();
    void bandedPreprocessingMatchesPooling();
    void batchedMatmulMatchesMatmul_data();
    void batchedMatmulMatchesMatmul();
    void cpuAttentionChecksEverySize_data();
    void cpuAttentionChecksEverySize();
};

void TestReference::multiHeadAttention() {
    const auto g = load("golden_mha.pt");
    MultiHeadAttention mha(16, 4, 0.1);
    StateDict sd;
    for (const char* k : {"key", "query", "value", "proj"})
        for (const char* p : {"weight", "bias"}) {
            const std::string name = std::string(k) + "." + p;
            sd.emplace_back(name, get(g, name));
        }
    loadStateDict(*mha, sd);
    mha->eval();
    torch::NoGradGuard ng;
    const auto q = get(g, "q"), kv = get(g, "kv");
    torch::Tensor w;
    const auto masked = mha(q, q, q, torch::tril(torch::ones({5, 5})), &w);
    CL_COMPARE_TENSORS(masked, get(g, "masked"), 1e-5);
    CL_COMPARE_TENSORS(w, get(g, "masked_weights"), 1e-5);
    // Causal: the upper triangle is exactly zero and rows sum to one.
    QCOMPARE(torch::triu(w, 1).abs().max().item<float>(), 0.f);
    CL_COMPARE_TENSORS(w.sum(-1), torch::ones({2, 4, 5}), 1e-5);
    CL_COMPARE_TENSORS(mha(q, kv, kv), get(g, "cross"), 1e-5);
}

void TestReference::positionalEncoding() {
    const auto g = load("golden_mha.pt");
    CL_COMPARE_TENSORS(sinusoidalTable(12, 16).unsqueeze(0), get(g, "pe"), 1e-6);
}

void TestReference::positionalEncodingInvariants() {
    const auto pe = sinusoidalTable(30, 8);
    CL_COMPARE_TENSORS(pe[0], torch::tensor({0.f, 1.f, 0.f, 1.f, 0.f, 1.f, 0.f, 1.f}), 0.0);
    QVERIFY(std::abs(pe[5][2].item<float>() - std::sin(5.0 * std::pow(1e-4, 2.0 / 8))) < 1e-6);
}

void TestReference::forward_data() {
    QTest::addColumn<QString>("layout");
    QTest::newRow("2021") << "2021";
    QTest::newRow("2025") << "2025";
}

void TestReference::forward() {
    QFETCH(QString, layout);
    auto t = tinyModel(layout.toStdString());
    const auto g = load(("golden_" + layout.toStdString() + ".pt").c_str());
    torch::NoGradGuard ng;
    std::vector<LayerAttention> w;
    auto mem = t.model->memory(get(g, "features"));
    const auto scores = t.model->decode(mem, get(g, "captions"), &w);
    CL_COMPARE_TENSORS(scores, get(g, "scores"), 1e-5);
    QCOMPARE(w.size(), size_t(2));
    for (size_t i = 0; i < w.size(); ++i) {
        CL_COMPARE_TENSORS(w[i].self, get(g, "self_weights." + std::to_string(i)), 1e-5);
        CL_COMPARE_TENSORS(w[i].cross, get(g, "cross_weights." + std::to_string(i)), 1e-5);
    }
}

void TestReference::decoderLayerWithGridMemory() {
    QFETCH(QString, layout);
    auto t = tinyModel(layout.toStdString());
    const auto g = load(("golden_" + layout.toStdString() + ".pt").c_str());
    torch::NoGradGuard ng;
    LayerAttention w;
    auto out = t.model->transformer->layer(0).forward(get(g, "layer_x"), get(g, "layer_memory"),
                                                      torch::tril(torch::ones({6, 6})), &w);
    CL_COMPARE_TENSORS(out, get(g, "layer_out"), 1e-5);
    QCOMPARE(w.cross.sizes(), (c10::IntArrayRef{3, 2, 6, 9})); // (N, H, T, M)
}

void TestReference::greedyMatchesSeedSample() {
    QFETCH(QString, layout);
    auto t = tinyModel(layout.toStdString());
    const auto g = load(("golden_" + layout.toStdString() + ".pt").c_str());
    DecodeOptions opt;
    opt.maxLength = 10;
    opt.stopAtEnd = false; // the seed's sample() never stops at <END>
    torch::NoGradGuard ng;
    const auto traces = greedyDecode(*t.model, t.model->memory(get(g, "features")), t.vocab, opt);
    const auto expected = get(g, "sample_tokens");
    QCOMPARE(traces.size(), size_t(expected.size(0)));
    for (size_t n = 0; n < traces.size(); ++n) {
        QCOMPARE(traces[n].steps.size(), size_t(10));
        for (int64_t s = 0; s < 10; ++s)
            QCOMPARE(traces[n].steps[s].id, expected[n][s].item<int64_t>());
    }
}

void TestReference::cachedDecodeMatchesFullRerun() {
    QFETCH(QString, layout);
    auto t = tinyModel(layout.toStdString());
    torch::manual_seed(3);
    const auto memory = torch::randn({2, 9, 16}); // a grid memory: cross rows are non-trivial
    DecodeOptions opt;
    opt.maxLength = 12;
    opt.stopAtEnd = false;
    torch::NoGradGuard ng;
    // Every head on, then with heads switched off (the ablation panel) in both attentions.
    for (bool ablated : {false, true}) {
        if (ablated) {
            t.model->transformer->layer(0).self_attn->setHeadMask(torch::tensor({1.f, 0.f}));
            t.model->transformer->layer(1).cross_attn->setHeadMask(torch::tensor({0.f, 1.f}));
        }
        const auto cached = greedyDecode(*t.model, memory, t.vocab, opt);
        const auto full = greedyDecodeFullRerun(*t.model, memory, t.vocab, opt);
        for (size_t n = 0; n < cached.size(); ++n) {
            QCOMPARE(cached[n].steps.size(), full[n].steps.size());
            for (size_t s = 0; s < cached[n].steps.size(); ++s) {
                const auto &a = cached[n].steps[s], &b = full[n].steps[s];
                QCOMPARE(a.id, b.id);
                QCOMPARE(a.selfAttn.size(), size_t(2 * 2 * (s + 1)));
                QCOMPARE(a.crossAttn.size(), size_t(2 * 2 * 9));
                for (size_t i = 0; i < a.selfAttn.size(); ++i)
                    QVERIFY(std::abs(a.selfAttn[i] - b.selfAttn[i]) < 1e-5f);
                for (size_t i = 0; i < a.crossAttn.size(); ++i)
                    QVERIFY(std::abs(a.crossAttn[i] - b.crossAttn[i]) < 1e-5f);
                QVERIFY(std::abs(a.prob - b.prob) < 1e-5f);
            }
        }
    }
}

namespace {

void compareSteps(const DecodeStep& a, const DecodeStep& b) {
    QCOMPARE(a.id, b.id);
    QVERIFY(std::abs(a.prob - b.prob) < 1e-5f);
    QCOMPARE(a.topK.size(), b.topK.size());
    for (size_t j = 0; j < a.topK.size(); ++j) {
        QCOMPARE(a.topK[j].id, b.topK[j].id);
        QVERIFY(std::abs(a.topK[j].prob - b.topK[j].prob) < 1e-5f);
    }
    QCOMPARE(a.selfAttn.size(), b.selfAttn.size());
    for (size_t i = 0; i < a.selfAttn.size(); ++i)
        QVERIFY(std::abs(a.selfAttn[i] - b.selfAttn[i]) < 1e-5f);
    QCOMPARE(a.crossAttn.size(), b.crossAttn.size());
    for (size_t i = 0; i < a.crossAttn.size(); ++i)
        QVERIFY(std::abs(a.crossAttn[i] - b.crossAttn[i]) < 1e-5f);
}

} // namespace

// One caption on the CPU takes fast_decode.cpp's loops; a batch takes the ATen decoder. Each row
// decoded alone must match the same row decoded in a batch, with every switch the GUI has, and
// the seed's sample() tokens.
void TestReference::batchOneFastPathMatchesBatched() {
    QFETCH(QString, layout);
    auto t = tinyModel(layout.toStdString());
    torch::manual_seed(4);
    const auto memory = torch::randn({2, 9, 16});
    torch::NoGradGuard ng;
    QVERIFY(fastCpuSource(*t.model, memory.narrow(0, 0, 1), 12) != nullptr);
    QVERIFY(fastCpuSource(*t.model, memory, 12) == nullptr);
    DecodeOptions opt;
    opt.maxLength = 12;
    opt.stopAtEnd = false;
    opt.topK = 4;
    for (int variant = 0; variant < 4; ++variant) {
        setDirectBlas(variant != 3); // 3: ATen's addmv, as where LibTorch exports no CBLAS
        if (variant == 1) {          // heads off in both attentions, as the ablation panel does
            t.model->transformer->layer(1).self_attn->setHeadMask(torch::tensor({0.f, 1.f}));
            t.model->transformer->layer(0).cross_attn->setHeadMask(torch::tensor({1.f, 0.f}));
        }
        t.model->positional_encoding->setEnabled(variant != 2);
        const auto batched = greedyDecode(*t.model, memory, t.vocab, opt);
        for (int64_t n = 0; n < 2; ++n) {
            const auto alone = greedyDecode(*t.model, memory.narrow(0, n, 1), t.vocab, opt);
            QCOMPARE(alone[0].steps.size(), batched[n].steps.size());
            for (size_t s = 0; s < alone[0].steps.size(); ++s)
                compareSteps(alone[0].steps[s], batched[n].steps[s]);
        }
    }
    setDirectBlas(true);
    t = tinyModel(layout.toStdString());
    const auto g = load(("golden_" + layout.toStdString() + ".pt").c_str());
    const auto features = get(g, "features"), expected = get(g, "sample_tokens");
    opt.maxLength = 10;
    for (int64_t n = 0; n < features.size(0); ++n) {
        const auto alone =
            greedyDecode(*t.model, t.model->memory(features.narrow(0, n, 1)), t.vocab, opt);
        for (int64_t s = 0; s < 10; ++s)
            QCOMPARE(alone[0].steps[s].id, expected[n][s].item<int64_t>());
    }
}

// The batch-1 path keeps stacked copies of the query/key/value weights between decodes; a
// changed parameter (a training step, loaded weights) must be seen by the next decode.
void TestReference::fastWeightsFollowParameterChanges() {
    auto t = tinyModel("2021");
    torch::manual_seed(6);
    const auto memory = torch::randn({2, 9, 16});
    DecodeOptions opt;
    opt.maxLength = 8;
    opt.stopAtEnd = false;
    const auto before = greedyDecode(*t.model, memory.narrow(0, 0, 1), t.vocab, opt);
    {
        torch::NoGradGuard ng;
        t.model->transformer->layer(0).self_attn->key->weight.mul_(-2.0);
        t.model->transformer->layer(1).self_attn->value->bias.add_(0.5);
    }
    const auto after = greedyDecode(*t.model, memory.narrow(0, 0, 1), t.vocab, opt);
    const auto batched = greedyDecode(*t.model, memory, t.vocab, opt);
    bool changed = false;
    for (size_t s = 0; s < after[0].steps.size(); ++s) {
        compareSteps(after[0].steps[s], batched[0].steps[s]);
        changed = changed || std::abs(after[0].steps[s].prob - before[0].steps[s].prob) > 1e-4f;
    }
    QVERIFY(changed); // the edit mattered, so a stale copy would have failed above
}

void TestReference::tokenChoiceMatchesAten_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("forced");
    QTest::newRow("random") << 0 << -1;
    QTest::newRow("ties") << 1 << -1;
    QTest::newRow("NaN") << 2 << -1;
    QTest::newRow("forced") << 0 << 7;
}

// One row takes plain loops (step_choice.cpp), two rows ATen's softmax/argmax/topk: the same
// choice and candidate probabilities, ties and NaN included (ATen leaves the order of equal
// values open, so there the indices need only hold those values).
void TestReference::tokenChoiceMatchesAten() {
    QFETCH(int, kind);
    QFETCH(int, forced);
    torch::manual_seed(7);
    auto row = torch::randn({1, 50});
    if (kind == 1)
        row.index_put_({0, torch::tensor({3, 9, 20, 41})}, 5.f); // four equal maxima
    if (kind == 2)
        row.index_put_({0, 12}, NAN);
    const auto one = chooseTokens(row, 6, forced);
    const auto two = chooseTokens(torch::cat({row, row}), 6, forced);
    auto same = [](float a, float b) {
        return (std::isnan(a) && std::isnan(b)) || std::abs(a - b) < 1e-6f;
    };
    QCOMPARE(one.ids[0].item<int64_t>(), two.ids[0].item<int64_t>());
    QVERIFY(same(one.prob[0][0].item<float>(), two.prob[0][0].item<float>()));
    const auto probs = torch::softmax(row, -1);
    std::set<int64_t> seen;
    for (int64_t j = 0; j < 6; ++j) {
        const auto i = one.topI[0][j].item<int64_t>();
        QVERIFY(same(one.topP[0][j].item<float>(), two.topP[0][j].item<float>()));
        QVERIFY(same(probs[0][i].item<float>(), one.topP[0][j].item<float>()));
        QVERIFY(seen.insert(i).second);
        if (kind == 0) // without ties the order is defined: the same indices
            QCOMPARE(i, two.topI[0][j].item<int64_t>());
    }
}

// The attention a GPU takes (elementwise products, no plain loops), exercised on the CPU by a
// model in double precision, which the float-only loops leave alone.
void TestReference::devicePathMatchesFullRerun() {
    QFETCH(QString, layout);
    auto t = tinyModel(layout.toStdString());
    t.model->to(torch::kDouble);
    t.model->transformer->layer(1).cross_attn->setHeadMask(torch::tensor({0.0, 1.0}));
    torch::manual_seed(5);
    const auto memory = torch::randn({2, 9, 16}, torch::kDouble);
    DecodeOptions opt;
    opt.maxLength = 12;
    opt.stopAtEnd = false;
    torch::NoGradGuard ng;
    const auto cached = greedyDecode(*t.model, memory, t.vocab, opt);
    const auto full = greedyDecodeFullRerun(*t.model, memory, t.vocab, opt);
    for (size_t n = 0; n < cached.size(); ++n) {
        QCOMPARE(cached[n].steps.size(), size_t(12));
        for (size_t s = 0; s < cached[n].steps.size(); ++s)
            compareSteps(cached[n].steps[s], full[n].steps[s]);
    }
}

void TestReference::stateDictKeyNames() {
    ModelConfig c = presets::tinyTest();
    CaptioningTransformer m(c, 0);
    std::vector<std::string> keys;
    for (const auto& [k, v] : stateDictOf(*m))
        keys.push_back(k);
    auto has = [&](const std::string& k) { return std::count(keys.begin(), keys.end(), k) == 1; };
    QVERIFY(has("transformer.layers.1.multihead_attn.proj.bias"));
    QVERIFY(has("transformer.layers.0.linear1.weight"));
    QVERIFY(has("transformer.layers.0.norm3.weight"));
    QVERIFY(has("positional_encoding.pe"));
    QCOMPARE(keys.size(), size_t(58 - 0)); // the notebook's 58 tensors (2 layers)
    c.layout = Layout::Course2025;
    CaptioningTransformer m2(c, 0);
    keys.clear();
    for (const auto& [k, v] : stateDictOf(*m2))
        keys.push_back(k);
    QVERIFY(has("transformer.layers.1.cross_attn.query.weight"));
    QVERIFY(has("transformer.layers.0.ffn.fc2.bias"));
    QVERIFY(has("transformer.layers.0.norm_cross.weight"));
}

// Photos above 4 megapixels are area-averaged band by band (bounded memory); the result must be
// the one adaptive pooling over the whole image gives.
// The raw kernel reads q, k, v and keep through pointers: each size it indexes with is checked
// first (each row below trips one check; before, each read past a buffer).
void TestReference::cpuAttentionChecksEverySize_data() {
    QTest::addColumn<QString>("wrong");
    for (const char* w : {"q rows", "q width", "v length", "keep length", "k dims", "k dtype"})
        QTest::newRow(w) << QString::fromLatin1(w);
}

void TestReference::cpuAttentionChecksEverySize() {
    QFETCH(QString, wrong);
    const int64_t n = 2, h = 3, t = 5, hs = 4;
    auto q = torch::randn({n, h * hs}), k = torch::randn({n, h, t, hs});
    auto v = torch::randn({n, h, t, hs}), keep = torch::ones({h});
    const auto [w0, o0] = attendHeadsCpu(q, k, v, keep, 0.5f); // the right sizes run
    QCOMPARE(o0.size(1), h * hs);
    if (wrong == "q rows")
        q = torch::randn({1, h * hs});
    else if (wrong == "q width")
        q = torch::randn({n, h * hs - 1});
    else if (wrong == "v length")
        v = torch::randn({n, h, t - 1, hs});
    else if (wrong == "keep length")
        keep = torch::ones({h - 1});
    else if (wrong == "k dims")
        k = torch::randn({n, h * t, hs});
    else
        k = k.to(torch::kDouble);
    QVERIFY(!attendHeadsCpuApplies(q, k, v) || wrong == "keep length");
    QVERIFY_THROWS_EXCEPTION(c10::Error, attendHeadsCpu(q, k, v, keep, 0.5f));
}

void TestReference::bandedPreprocessingMatchesPooling() {
    torch::manual_seed(9);
    for (auto [h, w] : {std::pair<int64_t, int64_t>{1700, 2600}, {2501, 1999}}) {
        const auto img = torch::randint(0, 256, {h, w, 3}, torch::kUInt8).contiguous();
        const auto banded = preprocessImage(img.data_ptr<uint8_t>(), h, w, 64);
        const auto whole = (torch::adaptive_avg_pool2d(
                                img.permute({2, 0, 1}).unsqueeze(0).to(torch::kFloat), {64, 64}) /
                                255.0 -
                            0.5) /
                           0.5;
        QCOMPARE(banded.sizes(), whole.sizes());
        QVERIFY((banded - whole).abs().max().item<float>() < 1e-5f);
    }
}

void TestReference::batchedMatmulMatchesMatmul_data() {
    QTest::addColumn<QString>("layout");
    for (const char* l :
         {"contiguous", "split heads", "transposed a", "one row", "one column", "copied"})
        QTest::newRow(l) << QString(l);
}

// Values and both gradients against ATen's matmul in double, for every way attention lays its
// operands out: in place (row- or column-major, strided), size-1 matrices, and a copy.
void TestReference::batchedMatmulMatchesMatmul() {
    QFETCH(QString, layout);
    torch::manual_seed(5);
    const int64_t n = 3, h = 4, s = 12, k = 40, t = 12; // one row or column: 480 products
    torch::Tensor a = torch::randn({n, h, s, k}), b = torch::randn({n, h, k, t});
    if (layout == "split heads") { // q (N, H, S, hs) @ k^T, both views of (N, T, H, hs)
        a = torch::randn({n, s, h, k}).transpose(1, 2);
        b = torch::randn({n, t, h, k}).transpose(1, 2).transpose(-2, -1);
    } else if (layout == "transposed a") {
        a = torch::randn({n, h, k, s}).transpose(-2, -1);
    } else if (layout == "one row") {
        a = torch::randn({n, h, k, 1}).transpose(-2, -1); // strides (.., 1, 1)
    } else if (layout == "one column") {
        b = torch::randn({n, h, 1, k}).transpose(-2, -1);
    } else if (layout == "copied") { // neither of the last two strides is 1
        a = torch::randn({n, h, s, k, 2}).select(4, 1);
    }
    QVERIFY(batchedMatmulDirect(a, b));
    const auto ga = a.detach().requires_grad_(true), gb = b.detach().requires_grad_(true);
    const auto y = batchedMatmul(ga, gb);
    const auto da = ga.to(torch::kDouble).detach().requires_grad_(true);
    const auto db = gb.to(torch::kDouble).detach().requires_grad_(true);
    const auto want = torch::matmul(da, db);
    QCOMPARE(y.sizes(), want.sizes());
    const auto close = [](const torch::Tensor& x, const torch::Tensor& to) {
        return x.numel() == 0 || (x.to(torch::kDouble) - to).abs().max().item<double>() < 1e-5;
    };
    QVERIFY(close(y, want));
    const auto up = torch::randn(want.sizes(), torch::kDouble);
    y.backward(up.to(torch::kFloat));
    want.backward(up);
    QVERIFY(close(ga.grad(), da.grad()));
    QVERIFY(close(gb.grad(), db.grad()));
    // Second derivatives: a backward that builds a graph goes through ATen's matmul.
    const auto second = [](const torch::Tensor& x, const torch::Tensor& w, auto&& mul) {
        const auto g = torch::autograd::grad({mul(x, w).pow(2).sum()}, {x}, {}, true, true)[0];
        return torch::autograd::grad({g.pow(2).sum()}, {w})[0];
    };
    const auto want2 = second(da, db, [](auto& x, auto& w) { return torch::matmul(x, w); });
    const auto got2 = second(ga, gb, batchedMatmul).to(torch::kDouble);
    QVERIFY(((got2 - want2).abs().max() / want2.abs().max()).item<double>() < 1e-5);
    {
        torch::InferenceMode inference; // decoding calls it without autograd
        QVERIFY(torch::allclose(batchedMatmul(a, b), y.detach()));
    }
    // Elsewhere ATen's: doubles, broadcasting, and a process without CBLAS.
    QVERIFY(!batchedMatmulDirect(da, db));
    QVERIFY(!batchedMatmulDirect(a.narrow(3, 0, 1), b.narrow(2, 0, 1).narrow(3, 0, 1))); // tiny
    QVERIFY(!batchedMatmulDirect(a.narrow(0, 0, 1), b));
    setDirectBlas(false);
    QVERIFY(!batchedMatmulDirect(a, b));
    QVERIFY(torch::allclose(batchedMatmul(a, b), y.detach(), 1e-5, 1e-6));
    setDirectBlas(true);
}

CL_TEST_APPLESS_MAIN(TestReference)
#include "tst_reference.moc"
