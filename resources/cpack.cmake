# The Debian package: `cpack -G DEB` in the build folder makes captionlens_<version>_<arch>.deb.
# Its dependencies come from dpkg-shlibdeps (Qt 6, LibTorch, QCustomPlot, ...) plus what the
# binaries load at run time without linking it: OpenBLAS behind Debian's generic libblas.so.3
# (without it LibTorch runs on the reference BLAS, about 30x slower).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME captionlens)
set(CPACK_PACKAGE_VENDOR "CaptionLens")
set(CPACK_PACKAGE_CONTACT "CaptionLens maintainers <captionlens@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "See inside an image-captioning transformer")
set(CPACK_PACKAGE_DESCRIPTION "CaptionLens runs the CS231n captioning transformer on images \
and shows the caption, every attention head of every layer, the positional encoding and greedy \
decoding step by step. It ships a trained model, so it works offline once installed.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# A Korean font for the Korean interface; Qt's own dialogs in Korean come with its translations.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libopenblas0-pthread, fonts-nanum | fonts-noto-cjk | fonts-unfonts-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "xdg-utils, qt6-translations-l10n")
set(CPACK_STRIP_FILES ON)
include(CPack)
