# frozen_string_literal: true
#
# Puppet's own Hiera engine as a long-lived test oracle.
#
# One process loads Puppet once (about a second) and then answers one JSON line per request
# on stdin, so thousands of lookups cost milliseconds each instead of one `puppet lookup`
# process per key.  The scope of every lookup is built the way `puppet lookup --node N
# --facts F` builds it (lib/puppet/application/lookup.rb, generate_scope): plain node
# terminus, facts merged into the node, a compiler with code 'undef', Puppet::Pops::Lookup.lookup
# inside compiler.compile.  docs/puppet-lookup-scope.md describes the resulting scope.
#
# Request (one line):
#   {"environmentpath": DIR, "environment": NAME, "node": CERTNAME, "facts": {...},
#    "hiera_config": PATH|null, "strict_variables": bool (default true),
#    "strict": "error"|"warning"|"off" (default "error"),
#    "lookups": [{"key": K, "merge": M}, ...]}
# Response (one line):
#   {"results": [{"found": true, "value": V} | {"found": false} | {"error": MSG}, ...],
#    "warnings": [...]}
# Each result may carry extra fields that comparisons ignore: "error_class", "lookup_error"
# (true when `puppet lookup` would exit 1 *silently*, as it does for not-found), "inspect".
# A request that cannot be served at all gives {"fatal": MSG}.
#
# Isolation: every request gets a fresh environment loader, environment, node and compiler
# (so Puppet's per-environment file cache starts empty and edits on disk are seen), and the
# lookup adapter (lookup_options cache, data providers, parsed hiera.yaml) is dropped before
# every key, so each key sees exactly what a separate `puppet lookup KEY` run would see.

require 'json'
require 'tmpdir'
require 'fileutils'

# Puppet must never write to our stdout; keep the real one for answers.
ANSWERS = $stdout.dup
ANSWERS.sync = true
$stdout.reopen($stderr)

WORK = Dir.mktmpdir('hiera-ls-oracle-')
at_exit { FileUtils.remove_entry(WORK) if File.directory?(WORK) }
%w[conf code code/modules var log run empty].each { |d| FileUtils.mkdir_p(File.join(WORK, d)) }
# The global layer is empty unless a request names a hiera.yaml: this path never exists, so
# Puppet falls back to its built-in default config whose data dir does not exist either.
EMPTY_GLOBAL = File.join(WORK, 'empty', 'hiera.yaml')

require 'puppet'

Puppet.initialize_settings(
  [
    '--confdir', File.join(WORK, 'conf'),
    '--codedir', File.join(WORK, 'code'),
    '--vardir', File.join(WORK, 'var'),
    '--logdir', File.join(WORK, 'log'),
    '--rundir', File.join(WORK, 'run'),
    # Only the environment's own module path counts; no machine-wide module directories.
    '--basemodulepath', File.join(WORK, 'code', 'modules'),
    '--hiera_config', EMPTY_GLOBAL,
    '--strict', 'error',
    '--strict_variables',
  ]
)
Puppet[:code] = 'undef'

# Collects Puppet's log messages per request instead of printing them.
class OracleCollector
  attr_reader :messages

  def initialize
    @messages = []
  end
end

Puppet::Util::Log.newdesttype :oracle_collector do
  match 'OracleCollector'

  def initialize(collector)
    @collector = collector
  end

  def handle(msg)
    @collector.messages << "#{msg.level}: #{msg.message}"
  end
end

COLLECTOR = OracleCollector.new
Puppet::Util::Log.close_all
Puppet::Util::Log.newdestination(COLLECTOR)
Puppet::Util::Log.level = :warning

NOT_FOUND = Object.new.freeze

# Ruby value -> JSON-able value.  Hash keys become strings with to_s (what JSON.generate does);
# anything that is not Data is tagged so that a comparison can never mistake it for Data.
def plain(value)
  case value
  when Hash
    value.each_with_object({}) { |(k, v), h| h[k.is_a?(String) ? k : k.to_s] = plain(v) }
  when Array
    value.map { |v| plain(v) }
  when String, Integer, Float, true, false, nil
    value
  else
    { '__ruby__' => value.class.name, 'inspect' => value.inspect }
  end
end

def strict_setting(name)
  case name
  when nil, 'error' then :error
  when 'warning' then :warning
  when 'off' then :off
  else raise ArgumentError, "strict must be error, warning or off, got #{name.inspect}"
  end
end

def lookup_one(compiler, key, merge)
  Puppet::Pops::Lookup::LookupAdapter.clear(compiler)
  invocation = Puppet::Pops::Lookup::Invocation.new(compiler.topscope, {}, {}, nil)
  value = Puppet::Pops::Lookup.lookup(key, nil, NOT_FOUND, true, merge, invocation)
  return { 'found' => false } if value.equal?(NOT_FOUND)

  { 'found' => true, 'value' => plain(value) }
rescue StandardError, SystemStackError => e
  {
    'error' => e.to_s,
    'error_class' => e.class.name,
    'lookup_error' => e.is_a?(Puppet::DataBinding::LookupError),
  }
end

def serve(request)
  envpath = request.fetch('environmentpath')
  env_name = request.fetch('environment', 'production') || 'production'
  facts_in = request.fetch('facts', {}) || {}
  raise ArgumentError, 'facts must be a hash' unless facts_in.is_a?(Hash)

  Puppet[:hiera_config] = request['hiera_config'] || EMPTY_GLOBAL
  Puppet[:strict] = strict_setting(request['strict'])
  Puppet[:strict_variables] = request.fetch('strict_variables', true) ? true : false
  Puppet[:environment] = env_name
  Puppet::Util::Warnings.clear_warnings
  COLLECTOR.messages.clear

  loader = Puppet::Environments::Directories.new(
    envpath, Puppet::Node::Environment.split_path(Puppet[:basemodulepath])
  )
  Puppet.override({ environments: loader }, 'hiera-ls oracle request') do
    env = loader.get(env_name)
    if env.nil?
      raise ArgumentError,
            "Could not find a directory environment named '#{env_name}' anywhere in the path: #{envpath}"
    end
    Puppet.override({ current_environment: env }, 'hiera-ls oracle environment') do
      node_name = request['node'] || facts_in['clientcert'] || 'localhost'
      # As `puppet lookup --node N --facts F`: no cached facts, then F on top.
      facts = Puppet::Node::Facts.new(node_name, {})
      facts.add_extra_values(facts_in)
      node = Puppet::Node.new(node_name, environment: env)
      node.fact_merge(facts)
      lookups = request['lookups'] || []
      results = nil
      begin
        compiler = Puppet::Parser::Compiler.new(node)
        compiler.compile do |catalog|
          results = lookups.map { |l| lookup_one(compiler, l.fetch('key'), l['merge']) }
          catalog
        end
      rescue StandardError => e
        raise unless results.nil?

        # The scope itself could not be built (e.g. a fact named 'module_name'): `puppet lookup`
        # fails the same way for every key.
        failure = { 'error' => e.to_s, 'error_class' => e.class.name, 'lookup_error' => false }
        results = lookups.map { failure }
      end
      { 'results' => results, 'warnings' => COLLECTOR.messages.dup }
    end
  end
end

# ---------------------------------------------------------------------------- kind "types"
#
# Puppet's type system and value text, for tests/puppet/test_types_differential.py.
# Request:  {"kind": "types", "aliases": {"Tm::Port": "Integer[0, 65535]", ...},
#            "cases": [{"type": TEXT|null, "value": V}, ...]}
# Aliases are written as type aliases of a module 'tm' (names must be Tm::<Word>).
# Response: {"results": [{"inspect", "to_s", "string", "string_p",
#            "type_string", "instance", "mismatch"} | {... "parse_error": MSG}
#            | {... "puppet_crash": MSG} (Puppet itself failed on the type), ...]}
def types_value_text(value)
  converter = Puppet::Pops::Types::StringConverter.singleton
  {
    'inspect' => value.inspect,
    'to_s' => value.to_s,
    'string' => converter.convert(value, :default),
    'string_p' => converter.convert(value, '%p'),
  }
end

def types_case(parser, loader, c)
  value = c['value']
  result = types_value_text(value)
  return result if c['type'].nil?

  begin
    type = parser.parse(c['type'], loader)
  rescue StandardError => e
    return result.merge('parse_error' => e.message)
  end
  result['type_string'] = type.to_s
  result['instance'] = type.instance?(value)
  result['mismatch'] =
    begin
      Puppet::Pops::Types::TypeAsserter.assert_instance_of('V', type, value)
      nil
    rescue Puppet::Error => e
      e.message
    end
  result
rescue StandardError => e # Puppet's own failure (a bug in it), not an answer
  result.merge('puppet_crash' => "#{e.class}: #{e}")
end

def serve_types(request)
  dir = Dir.mktmpdir('types-', WORK)
  types_dir = File.join(dir, 'typesenv', 'modules', 'tm', 'types')
  FileUtils.mkdir_p(types_dir)
  (request['aliases'] || {}).each do |name, text|
    File.write(File.join(types_dir, "#{name.split('::').last.downcase}.pp"), "type #{name} = #{text}\n")
  end
  env = Puppet::Node::Environment.create(:typesenv, [File.join(dir, 'typesenv', 'modules')])
  envs = Puppet::Environments::Static.new(env)
  Puppet.override({ environments: envs, current_environment: env }, 'hiera-ls types') do
    Puppet.override({ loaders: Puppet::Pops::Loaders.new(env) }, 'hiera-ls types loaders') do
      loader = Puppet.lookup(:loaders).private_environment_loader
      parser = Puppet::Pops::Types::TypeParser.singleton
      { 'results' => (request['cases'] || []).map { |c| types_case(parser, loader, c) } }
    end
  end
ensure
  FileUtils.remove_entry(dir) if dir && File.directory?(dir)
end

ANSWERS.puts(JSON.generate({ 'ready' => true, 'puppet' => Puppet.version }))
$stdin.each_line do |line|
  next if line.strip.empty?

  answer =
    begin
      request = JSON.parse(line)
      request['kind'] == 'types' ? serve_types(request) : serve(request)
    rescue StandardError, SystemStackError => e
      { 'fatal' => "#{e.class}: #{e}", 'warnings' => COLLECTOR.messages.dup }
    end
  ANSWERS.puts(JSON.generate(answer, allow_nan: true, max_nesting: false))
end
