#pragma once
// resources/web/page.html, compiled in (the CLI and the app need no file beside them).
namespace cl {
extern const char* const kWebPageTemplate;
}
