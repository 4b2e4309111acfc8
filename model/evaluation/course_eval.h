#pragma once
// Scoring a feature model on the course's val (or train) split: greedy captions against every
// ground-truth caption of each image (BLEU-1 per image, corpus BLEU-4, exact match) and the
// teacher-forced loss of the ground truth.
#include "model/api/captioner.h"
#include "model/data/course_data.h"

namespace cl {

struct CourseEvalOptions {
    Split split = Split::Val;
    int64_t limit = 0;      // the first N images of the split; 0: all of them
    int64_t maxLength = 30; // generated tokens per caption
};

struct CourseImageScore {
    int64_t image = 0;
    std::string caption;
    std::vector<std::string> references; // the image's ground-truth captions, as text
    double bleu1 = 0;
    bool exact = false; // the caption equals a reference word for word, <UNK> included
};

struct CourseEvalResult {
    int64_t images = 0;
    double bleu1 = 0; // mean over images of sentence BLEU-1 against all references
    double bleu4 = 0; // corpus BLEU-4
    double exact = 0; // fraction of images whose caption equals a reference, <UNK> included
    double exactUnkBlind = 0; // the same with <UNK> dropped from both sides (as BLEU drops it)
    double loss = 0;  // mean cross-entropy per non-<NULL> ground-truth target token
    int64_t lossTokens = 0;
    std::vector<CourseImageScore> perImage;
};

CourseEvalResult evaluateCourse(Captioner& model, const CourseData& data,
                                const CourseEvalOptions& options);

// The teacher-forced loss of the ground truth on the first `limit` images of the split (0: all),
// mean per non-<NULL> target token; `tokens` gets their count.
double courseLoss(Captioner& model, const CourseData& data, Split split, int64_t limit,
                  int64_t* tokens = nullptr);

// Exact match as eval reports it: the caption equals a reference word for word, <UNK> included (a
// word the model said); <START>, <END> and the <NULL> padding do not count.
bool exactMatch(const std::vector<int64_t>& caption,
                const std::vector<std::vector<int64_t>>& references, const Vocabulary& vocab);

// The words of a caption as display text (no <START>, <END> or <NULL>).
std::string captionText(const std::vector<int64_t>& ids, const Vocabulary& vocab);

} // namespace cl
