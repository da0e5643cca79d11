// A PDL pattern handing a rewrite of the vocabulary the results of another
// link constraint than its own: FuseWithReduce would take a map for the
// first reduce.
pdl.pattern @FuseAProducerAsAReduce : benefit(1) {
  %root = operation "block.reduce"
  %producer = apply_native_constraint "ProducerToMoveIntoReduce"(%root : !pdl.operation) : !pdl.range<value>
  rewrite %root {
    apply_native_rewrite "FuseWithReduce"(%producer, %root : !pdl.range<value>, !pdl.operation)
  }
}
