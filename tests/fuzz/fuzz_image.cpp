// libFuzzer target: any bytes as an image file (every format Qt reads here), decoded under the
// app's allocation limit, then preprocessed for the model as a caption request would be.
#include "model/nn/image_encoder.h"
#include "ui/imaging/image_loader.h"

#include <QByteArray>

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto img = cl::loadImageData(
        QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size)));
    if (!img.ok())
        return 0;
    if (img.rgb.pixels.size() != static_cast<size_t>(img.rgb.width * img.rgb.height * 3))
        __builtin_trap();
    const auto x = cl::preprocessImage(img.rgb.pixels.data(), img.rgb.height, img.rgb.width, 64);
    if (x.size(-1) != 64)
        __builtin_trap();
    return 0;
}
