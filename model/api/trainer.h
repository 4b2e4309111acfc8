#pragma once
// Training an image captioning model from scratch on the shapes world (fresh scenes every batch),
// with AdamW, linear warm-up and cosine decay, loss ignoring <NULL>, atomic checkpoints and resume.
#include "model/core/config.h"
#include "model/core/parallel_options.h"
#include "model/shapes/scene.h"

#include <functional>
#include <string>
#include <vector>

namespace cl {

struct TrainProgress {
    int64_t step = 0, steps = 0;
    double loss = 0;     // running average of recent steps, bias-corrected (train/smoothed_loss.h)
    double stepLoss = 0; // this step's loss
    double scenesPerSecond = 0;
    double secondsLeft = 0;
    double dataMs = 0; // the wait for this step's scenes (drawn on a thread during the last step)
    double stepMs = 0; // this step's forward, backward, clipping and AdamW update
};

// Data-parallel training (LibTorch's c10d): every rank runs the same command with its own rank;
// rank 0 hosts the rendezvous (a TCPStore at host:port) and writes the checkpoints.
struct TrainOptions {
    int64_t steps = 12000;
    int64_t batch = 32; // per rank: a step sees batch x worldSize scenes
    int64_t heads = 4, layers = 2, width = 128, ffn = 512;
    int64_t encoderChannels = 64, imageSize = 64, grid = 8;
    bool position2d = true;
    bool letterbox = true;       // fit images without distortion (api/letterbox.h)
    bool scaleCue = false;       // the encoder's fourth plane (core/config.h EncoderConfig)
    World world = World::Varied; // the scenes trained on
    // Varied-world curriculum: the first `classicShare` of the steps see classic scenes only
    // (the model learns to look at the image there quickly), then the share of varied scenes
    // rises linearly to all of them over as many steps again.
    double classicShare = 0.125;
    // Share of classic scenes that stays in every batch once the ramp is over (0: all varied),
    // so the editor's own world is not forgotten.
    double classicFloor = 0;
    // Object curriculum: over the first `objectCurriculum` of the steps the classic scenes hold
    // at most one, then two objects (a third of that span each), then up to three; 0: off.
    double objectCurriculum = 0;
    // Training-world scenes that calibrate the out-of-world check of every file written for
    // people (the final model and snapshots); 0 leaves the check off.
    int64_t calibrationScenes = 4096;
    uint64_t seed = 1;
    double lr = 1e-3, weightDecay = 0.01;
    double dropout = 0.1;
    // Decay of the weights' moving average written into the files people open (0: off; 0.999:
    // about the last 1,000 steps). train/weight_average.h
    double average = 0;
    // Focal loss: each word's cross-entropy scaled by (1 - p)^focal (0: plain cross-entropy).
    double focal = 0;
    int64_t warmup = 200;
    int64_t saveEvery = 500;
    std::string out;                    // checkpoint written every saveEvery steps and at the end
    std::string resume;                 // continue from this checkpoint (its options win)
    // Start from this shapes model's weights instead of random ones (fresh optimiser, schedule
    // and curriculum): its layers, heads and widths win, the image size and grid are ours (the
    // encoder is convolutional; the 2D position code is remade for the grid).
    std::string init;
    std::vector<int64_t> snapshotSteps; // also keep a copy OUT-stepN.pt at these steps
    std::string snapshotDir; // if set, snapshots go there as step000100.pt (a timeline's run)
    ParallelOptions parallel;
    std::function<void(const TrainProgress&)> onProgress;
    std::function<std::string(const std::string& checkpoint)> evaluateSnapshot; // JSON or ""
    // After each save of `out` (every saveEvery steps and at the end): the step and the file
    // just written. Returning true ends the run there, the file then written again as a final
    // model (calibrated, without the optimiser's state). train --until-exact uses it.
    std::function<bool(int64_t step, const std::string& checkpoint)> stopAfter;
    // After every step (one rank only): false ends the run there, `out` written as a final
    // model. It may block (the app's Pause).
    std::function<bool(int64_t step)> keepGoing;
};

// Returns the final average loss. Throws on bad options or I/O errors.
double trainShapes(const TrainOptions& options);

// The share of varied-world scenes in the batch of `step` (the curriculum and the classic floor).
double variedShareAt(const TrainOptions& options, int64_t step);

// The model config a set of training options describes.
ModelConfig shapesModelConfig(const TrainOptions& options);

} // namespace cl
