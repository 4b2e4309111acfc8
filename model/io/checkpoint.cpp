#include "model/io/checkpoint.h"

#include "model/core/errors.h"
#include "model/core/fail.h"
#include "model/io/pickle_archive.h"
#include "model/io/pickle_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <stdexcept>

namespace cl {

namespace {

using pickle::Value;

const Value& field(const Value& dict, const std::string& key, Value::Kind kind,
                   const std::string& where) {
    const Value* v = dict.find(key);
    if (!v)
        fail(where + " lacks the field '" + key + "'");
    if (v->kind != kind)
        fail(where + " field '" + key + "' is a " + v->kindName() + " of the wrong type");
    return *v;
}

int64_t intField(const Value& d, const std::string& key) {
    return field(d, key, Value::Kind::Int, "checkpoint config").i;
}

std::string strField(const Value& d, const std::string& key) {
    return field(d, key, Value::Kind::String, "checkpoint config").s;
}

std::string floatText(double v) { // the shortest text that reads back exactly
    char buf[32];
    for (int digits = 6; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v)
            break;
    }
    return buf;
}

// A float (files before weights_only support, Python-written files) or its text.
double dropoutFrom(const Value& d) {
    const Value* v = d.find("dropout");
    double x = v && v->kind == Value::Kind::Float ? v->f : NAN;
    if (v && v->kind == Value::Kind::String) {
        char* end = nullptr;
        x = std::strtod(v->s.str().c_str(), &end);
        if (*end != '\0')
            x = NAN;
    }
    if (!(x >= 0 && x < 1))
        fail("checkpoint config field 'dropout' must be a number in [0, 1)");
    return x;
}

Value configToValue(const ModelConfig& c) {
    Value d = Value::dict();
    d.set("vocab_size", Value::integer(c.vocabSize));
    d.set("input_dim", Value::integer(c.inputDim));
    d.set("wordvec_dim", Value::integer(c.wordvecDim));
    d.set("num_heads", Value::integer(c.numHeads));
    d.set("num_layers", Value::integer(c.numLayers));
    d.set("ffn_dim", Value::integer(c.ffnDim));
    d.set("max_length", Value::integer(c.maxLength));
    // As text: PyTorch 1.13's weights_only unpickler has no BINFLOAT opcode.
    d.set("dropout", Value::string(floatText(c.dropout)));
    d.set("layout", Value::string(layoutName(c.layout)));
    d.set("memory", Value::string(memoryKindName(c.memory)));
    d.set("encoder_image_size", Value::integer(c.encoder.imageSize));
    d.set("encoder_grid", Value::integer(c.encoder.grid));
    d.set("encoder_channels", Value::integer(c.encoder.channels));
    d.set("encoder_position2d", Value::boolean(c.encoder.position2d));
    if (c.encoder.letterbox) // absent in files of models that squash
        d.set("encoder_letterbox", Value::boolean(true));
    if (c.encoder.scaleCue) // absent in files of models without it
        d.set("encoder_scale_cue", Value::boolean(true));
    return d;
}

ModelConfig configFromValue(const Value& d) {
    if (!d.isDict())
        fail("checkpoint config is not a dict");
    ModelConfig c;
    c.vocabSize = intField(d, "vocab_size");
    c.inputDim = intField(d, "input_dim");
    c.wordvecDim = intField(d, "wordvec_dim");
    c.numHeads = intField(d, "num_heads");
    c.numLayers = intField(d, "num_layers");
    c.ffnDim = intField(d, "ffn_dim");
    c.maxLength = intField(d, "max_length");
    c.dropout = dropoutFrom(d);
    c.layout = layoutFromName(strField(d, "layout"));
    c.memory = memoryKindFromName(strField(d, "memory"));
    c.encoder.imageSize = intField(d, "encoder_image_size");
    c.encoder.grid = intField(d, "encoder_grid");
    c.encoder.channels = intField(d, "encoder_channels");
    c.encoder.position2d = field(d, "encoder_position2d", Value::Kind::Bool, "checkpoint config").b;
    if (d.find("encoder_letterbox"))
        c.encoder.letterbox =
            field(d, "encoder_letterbox", Value::Kind::Bool, "checkpoint config").b;
    if (d.find("encoder_scale_cue"))
        c.encoder.scaleCue =
            field(d, "encoder_scale_cue", Value::Kind::Bool, "checkpoint config").b;
    return c;
}

Value metaToValue(const Metadata& m) {
    Value d = Value::dict();
    d.set("steps", Value::integer(m.steps));
    d.set("dataset", Value::string(m.dataset));
    d.set("date", Value::string(m.date));
    d.set("source", Value::string(m.source));
    d.set("eval_json", Value::string(m.evalJson));
    if (!m.headsNote.empty())
        d.set("heads_note", Value::string(m.headsNote));
    if (!m.headImportanceJson.empty())
        d.set("head_importance_json", Value::string(m.headImportanceJson));
    if (!m.robustnessJson.empty())
        d.set("robustness_json", Value::string(m.robustnessJson));
    if (!m.circuitsJson.empty())
        d.set("circuits_json", Value::string(m.circuitsJson));
    return d;
}

Metadata metaFromValue(const Value& d) {
    Metadata m;
    if (!d.isDict())
        return m;
    auto str = [&](const char* k) {
        const Value* v = d.find(k);
        return v && v->kind == Value::Kind::String ? v->s.str() : std::string();
    };
    const Value* steps = d.find("steps");
    if (steps && steps->kind == Value::Kind::Int)
        m.steps = steps->i;
    m.dataset = str("dataset");
    m.date = str("date");
    m.source = str("source");
    m.evalJson = str("eval_json");
    m.headsNote = str("heads_note");
    m.headImportanceJson = str("head_importance_json");
    m.robustnessJson = str("robustness_json");
    m.circuitsJson = str("circuits_json");
    return m;
}

StateDict stateDictFrom(const Value& d, const std::string& where) {
    if (!d.isDict())
        fail(where + " is a " + d.kindName() + ", not a dict of tensors");
    StateDict out;
    for (const auto& [k, v] : *d.pairs) {
        if (k.kind != Value::Kind::String)
            fail(where + " has a key that is not a string");
        if (v.kind != Value::Kind::Tensor)
            fail(where + " entry '" + printable(k.s) + "' is a " + v.kindName() + ", not a tensor");
        out.emplace_back(k.s, v.tensor);
    }
    return out;
}

bool isOurFormat(const Value& root) {
    const Value* tag = root.find("format");
    return tag && tag->kind == Value::Kind::String && tag->s == kFormatTag;
}

} // namespace

Checkpoint readCheckpoint(const std::string& path) {
    const Value root = pickle::loadFile(path);
    if (!isOurFormat(root)) {
        if (root.isDict() && root.find("embedding.weight"))
            fail(path +
                 " is a bare course state_dict; convert it first with: captionlens-cli "
                 "import-cs231n " +
                 path + " --vocab VOCAB.json -o OUT.pt");
        fail(path + " is not a CaptionLens checkpoint (no format tag)");
    }
    const auto version = field(root, "version", Value::Kind::Int, "checkpoint").i;
    if (version != kFormatVersion)
        fail(path + " has format version " + std::to_string(version) + "; this build reads " +
             std::to_string(kFormatVersion));
    Checkpoint ck;
    ck.config = configFromValue(field(root, "config", Value::Kind::Dict, "checkpoint"));
    for (const auto& w : *field(root, "vocab", Value::Kind::List, "checkpoint").items) {
        if (w.kind != Value::Kind::String)
            fail(path + ": vocabulary entries must be strings");
        ck.vocab.push_back(w.s);
    }
    ck.stateDict =
        stateDictFrom(field(root, "state_dict", Value::Kind::Dict, "checkpoint"), "state_dict");
    if (const Value* meta = root.find("metadata"))
        ck.meta = metaFromValue(*meta);
    if (const Value* ts = root.find("train_state"))
        ck.trainState = stateDictFrom(*ts, "train_state");
    if (const Value* ws = root.find("world_stats"))
        ck.worldStats = stateDictFrom(*ws, "world_stats");
    if (static_cast<int64_t>(ck.vocab.size()) != ck.config.vocabSize)
        fail(path + ": the vocabulary has " + std::to_string(ck.vocab.size()) +
             " words but the config says " + std::to_string(ck.config.vocabSize));
    try {
        ck.config.validate();
    } catch (const std::exception& e) {
        fail(path + ": " + e.what());
    }
    return ck;
}

void writeCheckpoint(const std::string& path, const Checkpoint& ck) {
    Value root = Value::dict();
    root.set("format", Value::string(kFormatTag));
    root.set("version", Value::integer(kFormatVersion));
    root.set("config", configToValue(ck.config));
    pickle::Items words;
    for (const auto& w : ck.vocab)
        words.push_back(Value::string(w));
    root.set("vocab", Value::list(std::move(words)));
    Value sd = Value::dict();
    for (const auto& [k, t] : ck.stateDict)
        sd.set(k, Value::ofTensor(t));
    root.set("state_dict", sd);
    root.set("metadata", metaToValue(ck.meta));
    if (!ck.trainState.empty()) {
        Value ts = Value::dict();
        for (const auto& [k, t] : ck.trainState)
            ts.set(k, Value::ofTensor(t));
        root.set("train_state", ts);
    }
    if (!ck.worldStats.empty()) {
        Value ws = Value::dict();
        for (const auto& [k, t] : ck.worldStats)
            ws.set(k, Value::ofTensor(t));
        root.set("world_stats", ws);
    }
    pickle::saveFile(path, root);
}

StateDict readStateDict(const std::string& path, std::vector<std::string>* notes) {
    const Value root = pickle::loadFile(path);
    if (isOurFormat(root))
        return stateDictFrom(*root.find("state_dict"), "state_dict");
    auto note = [&](const std::string& text) {
        if (notes)
            notes->push_back(text);
    };
    // Training scripts often save {'model': state_dict, 'epoch': ..., 'optimizer': ...}.
    const Value* dict = &root;
    if (!root.find("embedding.weight"))
        for (const char* wrapper : {"model", "state_dict", "model_state_dict"}) {
            const Value* inner = root.find(wrapper);
            if (inner && inner->isDict()) {
                dict = inner;
                note(std::string("unwrapped the '") + wrapper + "' entry of the saved dict");
                break;
            }
        }
    StateDict sd = stateDictFrom(*dict, path);
    // nn.DataParallel prefixes every key with "module.".
    const std::string prefix = "module.";
    const bool wrapped = !sd.empty() && std::all_of(sd.begin(), sd.end(), [&](const auto& kv) {
        return kv.first.compare(0, prefix.size(), prefix) == 0;
    });
    if (wrapped) {
        for (auto& kv : sd)
            kv.first.erase(0, prefix.size());
        note("removed the 'module.' prefix (a DataParallel model) from every key");
    }
    return sd;
}

std::string isoDateNow() {
    std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return buf;
}

} // namespace cl
