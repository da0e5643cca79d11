// RUN: bb-opt %s --gpu-pair-bf16-round-trips | FileCheck %s

// Three f32 values rounded to bf16 and read back in f32: the first two share
// one packed conversion after the second, widened by a shift (the low half,
// the first) and a mask (the high half); the third has no partner.
// CHECK-LABEL: func.func @three
// CHECK:       %[[T0:.*]] = arith.truncf %arg0 : f32 to bf16
// CHECK:       %[[T1:.*]] = arith.truncf %arg1 : f32 to bf16
// CHECK:       %[[P:.*]] = vector.from_elements %[[T0]], %[[T1]] : vector<2xbf16>
// CHECK:       %[[V:.*]] = vector.bitcast %[[P]] : vector<2xbf16> to vector<1xi32>
// CHECK:       %[[W:.*]] = vector.extract %[[V]][0] : i32 from vector<1xi32>
// CHECK:       %[[LO:.*]] = arith.shli %[[W]], %{{.*}} : i32
// CHECK:       %[[F0:.*]] = arith.bitcast %[[LO]] : i32 to f32
// CHECK:       %[[HI:.*]] = arith.andi %[[W]], %{{.*}} : i32
// CHECK:       %[[F1:.*]] = arith.bitcast %[[HI]] : i32 to f32
// CHECK:       %[[T2:.*]] = arith.truncf %arg2 : f32 to bf16
// CHECK:       %[[F2:.*]] = arith.extf %[[T2]] : bf16 to f32
// CHECK:       %[[S:.*]] = arith.addf %[[F0]], %[[F1]] : f32
// CHECK:       arith.addf %[[S]], %[[F2]] : f32
func.func @three(%a: f32, %b: f32, %c: f32) -> f32 {
  %ta = arith.truncf %a : f32 to bf16
  %ea = arith.extf %ta : bf16 to f32
  %tb = arith.truncf %b : f32 to bf16
  %eb = arith.extf %tb : bf16 to f32
  %tc = arith.truncf %c : f32 to bf16
  %ec = arith.extf %tc : bf16 to f32
  %s = arith.addf %ea, %eb : f32
  %t = arith.addf %s, %ec : f32
  return %t : f32
}

// The first round trip is read before the second exists: moving its value
// after the second would not dominate that use, so the second pairs with
// the third instead.
// CHECK-LABEL: func.func @used_between
// CHECK:       %[[TA:.*]] = arith.truncf %arg0 : f32 to bf16
// CHECK:       %[[EA:.*]] = arith.extf %[[TA]] : bf16 to f32
// CHECK:       arith.mulf %[[EA]], %[[EA]] : f32
// CHECK:       %[[TB:.*]] = arith.truncf %arg1 : f32 to bf16
// CHECK:       %[[TC:.*]] = arith.truncf %arg2 : f32 to bf16
// CHECK:       vector.from_elements %[[TB]], %[[TC]] : vector<2xbf16>
func.func @used_between(%a: f32, %b: f32, %c: f32) -> f32 {
  %ta = arith.truncf %a : f32 to bf16
  %ea = arith.extf %ta : bf16 to f32
  %sq = arith.mulf %ea, %ea : f32
  %tb = arith.truncf %b : f32 to bf16
  %eb = arith.extf %tb : bf16 to f32
  %tc = arith.truncf %c : f32 to bf16
  %ec = arith.extf %tc : bf16 to f32
  %s = arith.addf %sq, %eb : f32
  %t = arith.addf %s, %ec : f32
  return %t : f32
}

// A rounding that something else reads in bf16 (here the return), a
// widening of an f16 and of a bf16 argument are not round trips.
// CHECK-LABEL: func.func @not_round_trips
// CHECK-NOT:   vector.from_elements
// CHECK:       return
func.func @not_round_trips(%a: f32, %b: f32, %h: f16, %g: bf16) -> (f32, bf16) {
  %ta = arith.truncf %a : f32 to bf16
  %ea = arith.extf %ta : bf16 to f32
  %tb = arith.truncf %b : f32 to f16
  %eb = arith.extf %tb : f16 to f32
  %eh = arith.extf %h : f16 to f32
  %eg = arith.extf %g : bf16 to f32
  %s = arith.addf %ea, %eb : f32
  %t = arith.addf %s, %eh : f32
  %u = arith.addf %t, %eg : f32
  return %u, %ta : f32, bf16
}
