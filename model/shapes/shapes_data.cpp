#include "model/shapes/shapes_data.h"

#include "model/nn/image_encoder.h"

namespace cl {

ShapesBatch shapesBatch(const std::vector<uint64_t>& seeds, int64_t imageSize,
                        const Vocabulary& vocab, World world, bool letterboxed) {
    const auto n = static_cast<int64_t>(seeds.size());
    std::vector<torch::Tensor> images(seeds.size());
    std::vector<std::vector<int64_t>> tokens(seeds.size());
    // Rendering is plain C++ per scene: spread it over LibTorch's thread pool.
    at::parallel_for(0, n, 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const Scene s = generateScene(seeds[i], world);
            images[i] = preprocessImage(s.rgb.data(), s.spec.height(), s.spec.width(), imageSize,
                                        letterboxed);
            tokens[i] = vocab.encode(s.captions.front());
        }
    });
    size_t longest = 0;
    for (const auto& t : tokens)
        longest = std::max(longest, t.size());
    auto captions =
        torch::full({n, static_cast<int64_t>(longest) + 2}, vocab.nullId(), torch::kLong);
    auto acc = captions.accessor<int64_t, 2>();
    for (int64_t i = 0; i < n; ++i) {
        acc[i][0] = vocab.startId();
        for (size_t k = 0; k < tokens[i].size(); ++k)
            acc[i][k + 1] = tokens[i][k];
        acc[i][tokens[i].size() + 1] = vocab.endId();
    }
    return {torch::cat(images, 0), captions};
}

} // namespace cl
