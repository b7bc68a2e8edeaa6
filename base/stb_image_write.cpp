// stb_image_write's implementation, compiled once for the whole library (PNG output, the test
// encoders' MJPEG frames). Everyone else includes <stb_image_write.h> for the declarations only.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image_write.h>
#pragma GCC diagnostic pop
