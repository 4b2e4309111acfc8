// libFuzzer target: any bytes as a checkpoint file, through everything a user's "Open checkpoint"
// runs (zip, restricted unpickler, tensor views, config, vocabulary, model building), and the
// course state_dict import path. A clean exception is fine; a crash, hang or leak is a finding.
#include "model/api/captioner.h"
#include "model/io/checkpoint.h"

#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace {
std::string scratchPath() {
    return "/tmp/captionlens-fuzz-" + std::to_string(getpid()) + ".pt";
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string path = scratchPath();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    try {
        auto model = cl::Captioner::open(path);
        (void)model->info();
    } catch (const std::exception&) {
    }
    try {
        const auto sd = cl::readStateDict(path);
        const auto layout = cl::detectLayout(sd);
        (void)cl::courseConfig(sd, 1004, 2, layout);
    } catch (const std::exception&) {
    }
    return 0;
}
