// libFuzzer target: any bytes as a lesson file (.cllesson). Relative paths point into a folder
// that does not exist, so the readers it reaches refuse them; the lesson must be refused with one
// line or come back with every index in range.
#include "ui/lessons/lesson.h"

#include <QGuiApplication>

#include <cstdint>
#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static int argc = 1;
    static char name[] = "fuzz_lesson";
    static char* argv[] = {name, nullptr};
    static QGuiApplication app(argc, argv); // QImage decoding of the embedded PNG
    try {
        const auto lesson = cl::ui::parseLesson(
            QByteArray(reinterpret_cast<const char*>(data), static_cast<int>(size)),
            QStringLiteral("fuzz.cllesson"), QStringLiteral("/nonexistent-fuzz-folder"));
        if (lesson.compareA < 0 || lesson.compareB < 0 || lesson.step < 0 || lesson.layer < 0 ||
            lesson.head < -1 || lesson.compare.size() > 16)
            __builtin_trap();
    } catch (const std::exception&) {
    }
    return 0;
}
