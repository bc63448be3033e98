# Every way a manifest includes a class by name.
class tricky::includes {
  include ::tricky::one
  include tricky::two, tricky::three
  include 'tricky::four'
  include "tricky::five"
  include ['tricky::six', 'tricky::seven']
  contain tricky::eight
  require ::tricky::nine
  'tricky::ten'.include
  class { '::tricky::eleven': }
  class { 'tricky::twelve':
    port => 8080,
  }
  class { ['tricky::thirteen', 'tricky::fourteen']: }
  include Class['tricky::fifteen']
  include "tricky::${facts['role']}"
  Class['tricky::one'] -> Class['tricky::two']
}
