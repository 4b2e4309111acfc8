#pragma once
// A small random feature model (the course's kind: one memory token) written as our checkpoint,
// for tests that need a model without an image encoder.
#include "model/io/checkpoint.h"
#include "model/io/model_io.h"
#include "model/nn/captioning_transformer.h"

#include <QTemporaryDir>

#include <string>

namespace cltest {

inline std::string featureModel(const QTemporaryDir& dir) {
    using namespace cl;
    Checkpoint ck;
    ck.config = presets::tinyTest();
    ck.vocab = {"<NULL>", "<START>", "<END>", "<UNK>"};
    for (int64_t i = 4; i < ck.config.vocabSize; ++i)
        ck.vocab.push_back("w" + std::to_string(i));
    CaptioningTransformer m(ck.config, 0);
    ck.stateDict = stateDictOf(*m);
    const std::string path = dir.filePath("features.pt").toStdString();
    writeCheckpoint(path, ck);
    return path;
}

} // namespace cltest
