#include "app/cli/model_input.h"

#include "model/data/npy.h"
#include "ui/imaging/image_loader.h"

#include <stdexcept>

namespace cl::cli {

ModelInput readModelInput(const Captioner& model, const std::string& image,
                          const std::string& features, int64_t row) {
    ModelInput in;
    in.image = model.info().config.memory == MemoryKind::ImageGrid;
    if (in.image == image.empty() || (!in.image && features.empty()))
        throw std::invalid_argument(in.image ? "this model captions images: give an image file"
                                             : "this model reads feature vectors: give "
                                               "--features FILE.npy [--row R]");
    if (in.image) {
        auto loaded = loadImage(QString::fromStdString(image));
        if (!loaded.ok())
            throw std::runtime_error(loaded.error.toStdString());
        in.rgb = std::move(loaded.rgb);
        return in;
    }
    const NpyMatrix m = readNpy(features);
    const int64_t width = model.info().config.inputDim;
    if (row < 0 || row >= m.rows || m.cols != width)
        throw std::invalid_argument(features + " has no row " + std::to_string(row) +
                                    " of width " + std::to_string(width));
    in.row = m.finiteRows(row, 1, features);
    return in;
}

} // namespace cl::cli
