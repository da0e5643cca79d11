// Source of the hand-made test artifact test/Runtime/CUDA/Inputs/artifacts/scale_add:
//   tmp = a * x          (module scale, kernel scale)
//   out = tmp + y        (module add, kernel add)
// with one thread per element and a bounds check, so that a grid that
// overshoots n (1000 elements in 8 blocks of 128) is correct.
extern "C" __global__ void scale(const float *x, float *tmp, long long n, float a) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tmp[i] = a * x[i];
}
extern "C" __global__ void add(const float *tmp, const float *y, float *out, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tmp[i] + y[i];
}
