#pragma once
// Texts made of several translated pieces ("First step" + " (Home)", a chart title joined from
// parts) cannot be put into another language from what is on screen: `apply` sets such a text
// now, and again whenever `owner` is told the language changed (QEvent::LanguageChange, which
// MainWindow::setLanguage sends to the whole window).
#include <QObject>

#include <functional>

namespace cl::ui {

void keepTranslated(QObject* owner, std::function<void()> apply);

// Widgets with this property set (word chips, ...) show the model's words: never translated.
inline constexpr char kModelWords[] = "cl_model_words";

} // namespace cl::ui
