#pragma once
// Connects a window to a model worker living on its own thread.
#include <QThread>

#include <memory>

namespace cl {

class CaptionWorker;
class CompareWorker;
class Courier;
namespace ui {
class MainWindow;
}

// Owns the model threads (the main caption's and the comparison's); stops them (after the
// current request) on destruction.
class ModelThread final {
  public:
    explicit ModelThread(ui::MainWindow& window);
    ~ModelThread();
    CaptionWorker* worker() const { return m_worker; }

  private:
    QThread m_thread, m_compareThread;
    CaptionWorker* m_worker;
    CompareWorker* m_compare;
    Courier* m_windowCourier; // child of the window (main thread)
    Courier* m_workerCourier; // children of the workers: they move to the workers' threads
    Courier* m_compareCourier;
};

} // namespace cl
