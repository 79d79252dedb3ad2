#include "learn/reviews/quality_index.h"

#include "model/schema.h"

namespace kaizen::learn {

int QualityDimensionIndex(std::string_view dimension) {
  const auto& dims = model::QualityDimensions();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == dimension) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace kaizen::learn
