// A PDL pattern calling a native rewrite the vocabulary does not have.
pdl.pattern @CallsTheUnknown : benefit(1) {
  %root = operation "block.neg"
  rewrite %root {
    apply_native_rewrite "NotAVocabularyWord"(%root : !pdl.operation)
  }
}
