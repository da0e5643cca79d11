//===- AxisUnifier.cpp - Axes from unified loop dimensions ----------------===//

#include "AxisUnifier.h"

using namespace mlir;
using namespace blockbuster;

unsigned AxisUnifier::addDim(Operation *op, unsigned dim, int64_t extent) {
  unsigned id = parent.size();
  parent.push_back(id);
  extents.push_back(extent);
  members.emplace_back();
  members.back()[op] = dim;
  ids[{op, dim}] = id;
  return id;
}

unsigned AxisUnifier::getDim(Operation *op, unsigned dim) const {
  return ids.lookup({op, dim});
}

unsigned AxisUnifier::find(unsigned id) const {
  while (parent[id] != id) {
    parent[id] = parent[parent[id]];
    id = parent[id];
  }
  return id;
}

bool AxisUnifier::unify(unsigned a, unsigned b) {
  a = find(a);
  b = find(b);
  if (a == b)
    return true;
  if (extents[a] != extents[b])
    return false;
  for (auto [op, dim] : members[b]) {
    auto it = members[a].find(op);
    if (it != members[a].end() && it->second != dim)
      return false;
  }
  // The smaller id represents the class.
  if (b < a)
    std::swap(a, b);
  for (auto [op, dim] : members[b])
    members[a][op] = dim;
  members[b].clear();
  parent[b] = a;
  return true;
}
