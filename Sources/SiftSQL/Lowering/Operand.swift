import Sift

/// What an expression of a comparison stands for.
enum Operand {
    case constant(Value)
    case column(Column)
    case toMany(ToMany)
}
