#pragma once
// The CLI's JSON form of a decode (also used by tests and lesson files).
#include "model/core/beam.h"
#include "model/core/trace.h"

#include <nlohmann/json.hpp>

namespace cl {

// {"caption", "tokens", "token_ids", "steps": [{"token","id","prob","top_k":[{"token","prob"}]}]}
// plus, with attention, "self_attention" [layer][head][T][T] and "cross_attention"
// [layer][head][T][M] (row t: the query that produced token t; masked entries are 0).
nlohmann::json traceToJson(const CaptionTrace& trace, bool attention);

// {"width", "length_penalty", "hypotheses": [{"caption", "tokens", "log_prob", "score",
// "finished"}] best first, "tree": [[{"parent", "token", "id", "log_prob", "kept",
// "finished"}] per step]}.
nlohmann::json beamToJson(const BeamResult& beam, const BeamOptions& options);

} // namespace cl
