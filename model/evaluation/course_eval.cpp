#include "model/evaluation/course_eval.h"

#include "model/evaluation/bleu.h"

#include <algorithm>

namespace cl {

namespace {

constexpr int64_t kBatch = 64; // images captioned and scored per call

std::vector<int64_t> firstImages(const CourseData& data, Split split, int64_t limit) {
    std::vector<int64_t> images = data.images(split);
    if (limit > 0 && limit < static_cast<int64_t>(images.size()))
        images.resize(static_cast<size_t>(limit));
    return images;
}

// The loss of every ground-truth caption of one image, given its feature row.
Captioner::CaptionLoss imageLoss(Captioner& model, const std::vector<std::vector<int64_t>>& refs,
                                 const std::vector<float>& row) {
    std::vector<int64_t> flat;
    std::vector<float> repeated;
    for (const auto& ref : refs) {
        flat.insert(flat.end(), ref.begin(), ref.end());
        repeated.insert(repeated.end(), row.begin(), row.end());
    }
    return model.featureCaptionLoss(repeated, flat, static_cast<int64_t>(refs.size()),
                                    static_cast<int64_t>(refs.front().size()));
}

Words traceIds(const CaptionTrace& trace) {
    Words ids;
    for (const auto& step : trace.steps)
        ids.push_back(step.id);
    return ids;
}

bool exactIn(const Words& hyp, const std::vector<Words>& refs) {
    return std::find(refs.begin(), refs.end(), hyp) != refs.end();
}

// One image's caption against its references: BLEU-1 as the course scores it (`hyp` and `refs`:
// <UNK> dropped), exact match on the words as said (<UNK> kept).
CourseImageScore scoreImage(int64_t image, const CaptionTrace& trace, const Words& ids,
                            const std::vector<std::vector<int64_t>>& refsIds, const Words& hyp,
                            const std::vector<Words>& refs, const Vocabulary& vocab) {
    CourseImageScore s;
    s.image = image;
    s.caption = trace.text();
    for (const auto& ref : refsIds)
        s.references.push_back(captionText(ref, vocab));
    s.bleu1 = sentenceBleu1(hyp, refs);
    s.exact = exactMatch(ids, refsIds, vocab);
    return s;
}

} // namespace

double courseLoss(Captioner& model, const CourseData& data, Split split, int64_t limit,
                  int64_t* tokens) {
    const int64_t width = model.info().config.inputDim;
    double sum = 0;
    int64_t count = 0;
    for (auto image : firstImages(data, split, limit)) {
        const auto loss =
            imageLoss(model, data.references(split, image), data.features(split, image, width));
        sum += loss.sum;
        count += loss.tokens;
    }
    if (tokens)
        *tokens = count;
    return count > 0 ? sum / static_cast<double>(count) : 0;
}

bool exactMatch(const std::vector<int64_t>& caption,
                const std::vector<std::vector<int64_t>>& references, const Vocabulary& vocab) {
    const Words said = captionWords(caption, vocab);
    return std::any_of(references.begin(), references.end(),
                       [&](const auto& ref) { return captionWords(ref, vocab) == said; });
}

std::string captionText(const std::vector<int64_t>& ids, const Vocabulary& vocab) {
    std::string out;
    for (auto id : ids) {
        if (id == vocab.endId())
            break;
        if (id == vocab.startId() || id == vocab.nullId())
            continue;
        out += (out.empty() ? "" : " ") + vocab.word(id);
    }
    return out;
}

CourseEvalResult evaluateCourse(Captioner& model, const CourseData& data,
                                const CourseEvalOptions& o) {
    const Vocabulary& vocab = model.vocab();
    const int64_t width = model.info().config.inputDim;
    const std::vector<int64_t> images = firstImages(data, o.split, o.limit);
    DecodeOptions decode;
    decode.maxLength = o.maxLength;
    decode.topK = 1;
    CourseEvalResult r;
    CorpusBleu corpus;
    double lossSum = 0;
    for (size_t first = 0; first < images.size(); first += kBatch) {
        const size_t end = std::min(images.size(), first + kBatch);
        std::vector<float> rows;
        for (size_t i = first; i < end; ++i) {
            const auto f = data.features(o.split, images[i], width);
            rows.insert(rows.end(), f.begin(), f.end());
        }
        const auto count = static_cast<int64_t>(end - first);
        const auto traces = model.captionFeatures(rows, count, decode);
        for (size_t i = first; i < end; ++i) {
            const auto refsIds = data.references(o.split, images[i]);
            std::vector<Words> refs;
            for (const auto& ref : refsIds)
                refs.push_back(scoredWords(ref, vocab));
            const Words ids = traceIds(traces[i - first]);
            const Words hyp = scoredWords(ids, vocab);
            const CourseImageScore s =
                scoreImage(images[i], traces[i - first], ids, refsIds, hyp, refs, vocab);
            corpus.add(hyp, refs);
            r.bleu1 += s.bleu1;
            r.exact += s.exact ? 1 : 0;
            r.exactUnkBlind += exactIn(hyp, refs) ? 1 : 0;
            r.perImage.push_back(s);
            const auto at = rows.begin() + static_cast<long>((i - first) * width);
            const auto loss = imageLoss(model, refsIds, std::vector<float>(at, at + width));
            lossSum += loss.sum;
            r.lossTokens += loss.tokens;
        }
    }
    r.images = static_cast<int64_t>(images.size());
    if (r.images > 0) {
        r.bleu1 /= static_cast<double>(r.images);
        r.exact /= static_cast<double>(r.images);
        r.exactUnkBlind /= static_cast<double>(r.images);
    }
    r.bleu4 = corpus.score();
    r.loss = r.lossTokens > 0 ? lossSum / static_cast<double>(r.lossTokens) : 0;
    return r;
}

} // namespace cl
