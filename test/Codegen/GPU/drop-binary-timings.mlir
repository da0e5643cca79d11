// RUN: bb-opt %s --gpu-drop-binary-timings | FileCheck %s

// gpu-module-to-binary records compile times in each object's properties,
// so the printed IR would differ from run to run. Every property whose name
// ends in TimeInMs goes; the others, the target, format and object stay.
// CHECK: gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {O = 3 : i32}, "PTX">]
// CHECK: gpu.binary @other [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {}, "PTX2">]
// CHECK-NOT: TimeInMs

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {LLVMIRToISATimeInMs = 12 : i64, O = 3 : i32, ISAToBinaryTimeInMs = 3 : i64}, "PTX">]
  gpu.binary @other [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {LLVMIRToISATimeInMs = 5 : i64}, "PTX2">]
}
