#include "model/dataset/shapes_data.h"
#include "model/shapes/rng.h"

#include "model/nn/image_encoder.h"

namespace cl {

namespace {

// Renders and preprocesses seeds[0..n) in parallel; the canonical captions too when asked.
torch::Tensor renderScenes(const std::vector<uint64_t>& seeds, const EncoderConfig& input,
                           World world, double variedShare, int maxObjects,
                           std::vector<std::string>* captions) {
    const auto n = static_cast<int64_t>(seeds.size());
    std::vector<torch::Tensor> images(seeds.size());
    if (captions)
        captions->assign(seeds.size(), {});
    // Rendering is plain C++ per scene: spread it over LibTorch's thread pool.
    at::parallel_for(0, n, 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const bool varied =
                world == World::Varied &&
                (variedShare >= 1 || shapes::Rng(seeds[i] ^ 0x5EEDC0DEULL).chance(variedShare));
            const Scene s = varied ? generateVariedScene(seeds[i])
                                   : renderScene(randomSpec(seeds[i], 128, maxObjects));
            images[i] = preprocessImage(s.rgb.data(), s.spec.height(), s.spec.width(), input);
            if (captions)
                (*captions)[i] = s.captions.front();
        }
    });
    return torch::cat(images, 0);
}

} // namespace

torch::Tensor shapesImages(const std::vector<uint64_t>& seeds, const EncoderConfig& input,
                           World world) {
    return renderScenes(seeds, input, world, 1.0, 3, nullptr);
}

ShapesBatch shapesBatch(const std::vector<uint64_t>& seeds, const EncoderConfig& input,
                        const Vocabulary& vocab, World world, double variedShare, int maxObjects) {
    const auto n = static_cast<int64_t>(seeds.size());
    std::vector<std::string> texts;
    auto images = renderScenes(seeds, input, world, variedShare, maxObjects, &texts);
    std::vector<std::vector<int64_t>> tokens;
    size_t longest = 0;
    for (const auto& t : texts) {
        tokens.push_back(vocab.encode(t));
        longest = std::max(longest, tokens.back().size());
    }
    auto captions =
        torch::full({n, static_cast<int64_t>(longest) + 2}, vocab.nullId(), torch::kLong);
    auto acc = captions.accessor<int64_t, 2>();
    for (int64_t i = 0; i < n; ++i) {
        acc[i][0] = vocab.startId();
        for (size_t k = 0; k < tokens[i].size(); ++k)
            acc[i][k + 1] = tokens[i][k];
        acc[i][tokens[i].size() + 1] = vocab.endId();
    }
    return {images, captions};
}

} // namespace cl
