#pragma once
// A lesson: everything needed to reopen a teaching moment as one small JSON file (.cllesson):
// the input (a shapes scene as its layout, an image embedded as PNG, or a feature row by path),
// the checkpoint, the compared checkpoints and training run, the panel, the selected word,
// layer and head, and the heads switched off. Paths are stored relative to the lesson's folder
// when they lie below it, so a lesson folder can be copied to another machine.
#include "model/shapes/scene.h"

#include <QImage>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace cl::ui {

struct Lesson {
    enum class Input { None, Scene, Image, Features };
    Input input = Input::None;
    SceneSpec scene;   // Input::Scene
    QImage image;      // Input::Image
    QString imageName; // shown in the title bar
    QString featuresPath;
    int featuresRow = 0;
    std::vector<float> features; // that row, read (and checked) with the lesson
    QString checkpoint;          // absolute once read
    QStringList compare;
    int compareA = 0, compareB = 1, compareHeadA = 0, compareHeadB = 0, compareStep = 0;
    bool compareSelf = false; // false: cross-attention
    QString timelineFolder;
    int timelinePosition = 0;
    QString panel = QStringLiteral("caption");
    int step = 0, layer = 0, head = -1;
    double opacity = 0.75;
    bool autoContrast = true;
    std::vector<uint8_t> headsOff;
    // The Circuits panel's pair: object `circuitsObject` of the scene with change
    // `circuitsChange` (Change's order; -1: no pair), the input position measured (-1: where
    // the captions part) and the direction. Reopened, the pair is made and run again.
    int circuitsObject = -1, circuitsChange = -1, circuitsWord = -1;
    bool circuitsNoising = false;
};

// Files below the lesson's folder are stored relative to it; the bundled files (below
// `resources`, the app's share/captionlens) as "@resources/models/default.pt", so a lesson opens
// on any install; anything else by its absolute path.
// Writes through files::write (atomic for a regular file). Returns "", or why it failed.
QString writeLesson(const Lesson& lesson, const QString& path, const QString& resources = {});
// Reads and checks a lesson whole, with the feature row it names; throws std::runtime_error
// with a one-line reason. Reads files: call it off the GUI thread.
Lesson readLesson(const QString& path, const QString& resources = {});

// The same from the file's bytes; relative paths resolve against `folder` (fuzzing, tests).
Lesson parseLesson(const QByteArray& bytes, const QString& name, const QString& folder,
                   const QString& resources = {});

// One row of a .npy feature file through the checked reader: in range, finite; throws one line.
std::vector<float> readFeatureRow(const QString& path, int row);

} // namespace cl::ui
