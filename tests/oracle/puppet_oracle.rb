# frozen_string_literal: true
#
# Ruby, Psych and Puppet (7.23 or 8.10: tests/oracle/engines.py) as one long-lived test oracle.
#
# One process loads Puppet once (about a second) and then answers one JSON line per request
# on stdin, so thousands of questions cost milliseconds each instead of one process each.
# The Python side is tests/oracle/puppet.py (one method per command).
#
# Request (one line):  {"command": NAME, ...fields of that command}
#   "kind" is read as another name for "command"; a request with neither is a lookup (the
#   original request, still the commonest).
# Response (one line): {"results": [...], "warnings": [...]} (more fields for some commands);
#   a request that cannot be served at all gives {"fatal": MSG}.
#
# Commands (COMMANDS below; adding one is adding an entry):
#   lookup       {"environmentpath": DIR, "environment": NAME, "node": CERTNAME, "facts": {...},
#                 "hiera_config": PATH|null, "strict_variables": bool (default true),
#                 "strict": "error"|"warning"|"off" (default "error"),
#                 "compile": bool (default false: as `puppet lookup`, which gives no server
#                 facts in Puppet 7 and the machine's own in Puppet 8; true: the node gets the
#                 server facts a catalog compile gives it, as `puppet apply` adds them),
#                 "lookups": [{"key": K, "merge": M}, ...]}
#                -> results [{"found": true, "value": V} | {"found": false} | {"error": MSG}]
#                   V is the value as `puppet lookup --render-as json` renders it (see below).
#                   Extra fields that comparisons ignore: "error_class", "lookup_error" (true
#                   when `puppet lookup` would exit 1 *silently*, as it does for not-found).
#   load_yaml    {"texts": [...]} -> results [{"ok": VALUE} | {"error": MSG}]: Psych.safe_load
#                 as Puppet's yaml_data calls it, errors worded as yaml_data words them.
#   load_json    {"texts": [...]} -> results [{"ok": VALUE} | {"error": MSG}]: JSON.parse as
#                 Puppet's json_data calls it.
#   merge        {"cases": [{"spec": VALUE, "a": VALUE, "b": VALUE}]}
#                -> results [{"ok": VALUE} | {"error": MSG}]: MergeStrategy.strategy(spec).merge(a, b)
#   merge_lookup {"cases": [{"spec": VALUE, "values": [VALUE | {"not_found": true}]}]}
#                -> results [{"ok": VALUE} | {"not_found": true} | {"error": MSG}]:
#                   MergeStrategy#lookup over variants, some of them not found
#   merge_strategy {"specs": [VALUE]} -> results [{"ok": {"key": K, "options": VALUE}} | {"error"}]
#   sort         {"values": [VALUE]} -> results [{"ok": VALUE} | {"error": MSG}]: Array#sort
#   inspect      {"values": [VALUE]} -> results [{"ok": {"inspect": S, "to_s": S}} | {"error"}]
#   infer_type   {"values": [VALUE]} -> results [{"ok": TYPE_TEXT} | {"error": MSG}]:
#                 TypeCalculator#infer_set(v).normalize.to_s
#   render       {"values": [VALUE]} -> results [{"ok": {"yaml": S, "json": S, "s": S}}]: the
#                 text `puppet lookup --render-as FORMAT` prints for the value (before `puts`);
#                 a format that fails gives {"error": MSG} in its place
#
# Values (one encoding, both directions; the Python twin is tests/oracle/values.py):
#   nil, true, false, String, Integer  -> JSON null, true, false, string, number
#   Float     -> JSON number as Ruby writes it (1.0, 1.0e+20, -0.0: it reads back as a float,
#                exactly), NaN / Infinity / -Infinity as those bare words (both JSON libraries
#                read them when asked to)
#   Array     -> JSON array
#   Hash      -> {"hash": [[KEY, VALUE], ...]}   insertion order kept, keys of any type
#   Symbol    -> {"symbol": NAME}
#   any other -> {"ruby_object": CLASS_NAME, "inspect": VALUE.inspect}
# A lookup's value is rendered as `puppet lookup --render-as json` renders it instead: hashes
# are JSON objects whose non-String keys become key.to_s (as JSON.generate does), everything
# else as above, so a Symbol or an object can never be mistaken for Data.
#
# Lookup isolation: every request gets a fresh environment loader, environment, node and
# compiler (so Puppet's per-environment file cache starts empty and edits on disk are seen),
# and the lookup adapter (lookup_options cache, data providers, parsed hiera.yaml) is dropped
# before every key, so each key sees exactly what a separate `puppet lookup KEY` run would
# see.  The scope of every lookup is built the way `puppet lookup --node N --facts F` builds
# it (lib/puppet/application/lookup.rb, generate_scope): plain node terminus, facts merged
# into the node, a compiler with code 'undef', Puppet::Pops::Lookup.lookup inside
# compiler.compile.  docs/puppet-lookup-scope.md describes the resulting scope.

require 'json'
require 'psych'
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
begin
  require 'puppet/node/server_facts' # Puppet 8 (puppet lookup's server facts)
rescue LoadError
  nil
end

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

# ------------------------------------------------------------------------------ the encoding

# The one encoding of Ruby values as JSON (see the header), and back.
module Values
  module_function

  def encode(value)
    case value
    when nil, true, false, Integer, Float then value
    when String then value.dup.force_encoding('UTF-8').scrub
    when Symbol then { 'symbol' => value.to_s }
    when Array then value.map { |v| encode(v) }
    when Hash then { 'hash' => value.map { |k, v| [encode(k), encode(v)] } }
    else { 'ruby_object' => value.class.name, 'inspect' => value.inspect }
    end
  end

  def decode(value)
    case value
    when Array then value.map { |v| decode(v) }
    when Hash
      return value['symbol'].to_sym if value.key?('symbol')
      return value.fetch('hash').to_h { |k, v| [decode(k), decode(v)] } if value.key?('hash')

      raise ArgumentError, "not an encoded value: #{value.inspect}"
    else value
    end
  end

  # As `puppet lookup --render-as json` shows a value: hash keys become strings with to_s
  # (what JSON.generate does); what is not Data keeps its tagged form.
  def json_view(value)
    case value
    when Hash
      value.each_with_object({}) { |(k, v), h| h[k.is_a?(String) ? k : k.to_s] = json_view(v) }
    when Array then value.map { |v| json_view(v) }
    when String, Integer, Float, true, false, nil then value
    else encode(value)
    end
  end
end

# One result per input: {"ok" => encoded value} or {"error" => message}.  Every exception
# counts, as a stack overflow or a failed comparison is an answer too.
def each_answer(inputs)
  inputs.map do |input|
    { 'ok' => yield(input) }
  rescue Exception => e # rubocop:disable Lint/RescueException
    { 'error' => e.message }
  end
end

# ------------------------------------------------------------------------------ lookup

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

  { 'found' => true, 'value' => Values.json_view(value) }
rescue StandardError, SystemStackError => e
  {
    'error' => e.to_s,
    'error_class' => e.class.name,
    'lookup_error' => e.is_a?(Puppet::DataBinding::LookupError),
  }
end

def lookup(request)
  envpath = request.fetch('environmentpath')
  env_name = request.fetch('environment', 'production') || 'production'
  facts_in = request.fetch('facts', {}) || {}
  raise ArgumentError, 'facts must be a hash' unless facts_in.is_a?(Hash)

  Puppet[:hiera_config] = request['hiera_config'] || EMPTY_GLOBAL
  Puppet[:strict] = strict_setting(request['strict'])
  Puppet[:strict_variables] = request.fetch('strict_variables', true) ? true : false
  Puppet[:environment] = env_name
  Puppet::Util::Warnings.clear_warnings

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
      if request['compile']
        node.add_server_facts({}) # as puppet apply: {"environment" => name}
      elsif defined?(Puppet::Node::ServerFacts)
        # Puppet 8's `puppet lookup` adds the server's own facts (this machine's); 7's none
        node.add_server_facts(Puppet::Node::ServerFacts.load)
      end
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
      { 'results' => results }
    end
  end
end

# ------------------------------------------------------------------------------ data files

def load_yaml(request)
  results = request.fetch('texts').map do |text|
    value = Psych.safe_load(text, permitted_classes: [Symbol], aliases: true, filename: 'f.yaml')
    { 'ok' => Values.encode(value) }
  rescue Psych::DisallowedClass => e
    { 'error' => "Unable to parse (f.yaml): #{e.message}" }
  rescue StandardError, Psych::Exception => e
    { 'error' => "Unable to parse #{e.message.lines.first.chomp}" }
  end
  { 'results' => results }
end

def load_json(request)
  results = request.fetch('texts').map do |text|
    { 'ok' => Values.encode(JSON.parse(text)) }
  rescue JSON::ParserError => e
    { 'error' => "Unable to parse (x.json): #{e.message}" }
  end
  { 'results' => results }
end

# ------------------------------------------------------------------------------ merges and values

MERGE = Puppet::Pops::MergeStrategy

def merge(request)
  answers = each_answer(request.fetch('cases')) do |c|
    Values.encode(MERGE.strategy(Values.decode(c['spec'])).merge(Values.decode(c['a']), Values.decode(c['b'])))
  end
  { 'results' => answers }
end

def merge_lookup(request)
  results = request.fetch('cases').map do |c|
    variants = c['values'].map { |v| v.is_a?(Hash) && v['not_found'] ? NOT_FOUND : Values.decode(v) }
    strategy = MERGE.strategy(Values.decode(c['spec']))
    found = false
    value = catch(:no_such_key) do
      merged = strategy.lookup(variants, Puppet::Pops::Lookup::Invocation.new(nil)) do |v|
        throw :no_such_key if v.equal?(NOT_FOUND)
        v
      end
      found = true
      merged
    end
    found ? { 'ok' => Values.encode(value) } : { 'not_found' => true }
  rescue Exception => e # rubocop:disable Lint/RescueException
    { 'error' => e.message }
  end
  { 'results' => results }
end

def merge_strategy(request)
  answers = each_answer(request.fetch('specs')) do |spec|
    strategy = MERGE.strategy(Values.decode(spec))
    { 'key' => strategy.class.key.to_s, 'options' => Values.encode(strategy.options) }
  end
  { 'results' => answers }
end

def sort(request)
  { 'results' => each_answer(request.fetch('values')) { |v| Values.encode(Values.decode(v).sort) } }
end

def inspect_values(request)
  answers = each_answer(request.fetch('values')) do |encoded|
    v = Values.decode(encoded)
    { 'inspect' => v.inspect, 'to_s' => v.to_s }
  end
  { 'results' => answers }
end

def infer_type(request)
  calculator = Puppet::Pops::Types::TypeCalculator.singleton
  answers = each_answer(request.fetch('values')) do |v|
    calculator.infer_set(Values.decode(v)).normalize.to_s
  end
  { 'results' => answers }
end

def render_values(request)
  formats = %w[yaml json s].to_h { |f| [f, Puppet::Network::FormatHandler.format(f.to_sym)] }
  answers = each_answer(request.fetch('values')) do |v|
    value = Values.decode(v)
    formats.transform_values do |renderer|
      renderer.render(value)
    rescue StandardError => e
      { 'error' => e.message }
    end
  end
  { 'results' => answers }
end

# ------------------------------------------------------------------------------ types
#
# Puppet's type system and value text, for tests/differential/test_types_vs_puppet.py.
# Request:  {"command": "types", "aliases": {"Tm::Port": "Integer[0, 65535]", ...},
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
  value = Values.decode(c['value'])
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

# ------------------------------------------------------------------------------ dispatch

COMMANDS = {
  'lookup' => method(:lookup),
  'load_yaml' => method(:load_yaml),
  'load_json' => method(:load_json),
  'merge' => method(:merge),
  'merge_lookup' => method(:merge_lookup),
  'merge_strategy' => method(:merge_strategy),
  'sort' => method(:sort),
  'inspect' => method(:inspect_values),
  'infer_type' => method(:infer_type),
  'render' => method(:render_values),
  'types' => method(:serve_types),
}.freeze

def serve(request)
  name = request['command'] || request['kind'] || 'lookup'
  command = COMMANDS[name]
  raise ArgumentError, "unknown command #{name.inspect} (known: #{COMMANDS.keys.join(', ')})" if command.nil?

  COLLECTOR.messages.clear
  command.call(request).merge('warnings' => COLLECTOR.messages.dup)
end

ANSWERS.puts(JSON.generate({ 'ready' => true, 'puppet' => Puppet.version, 'commands' => COMMANDS.keys }))
$stdin.each_line do |line|
  next if line.strip.empty?

  answer =
    begin
      serve(JSON.parse(line, allow_nan: true, max_nesting: false))
    rescue StandardError, SystemStackError => e
      { 'fatal' => "#{e.class}: #{e}", 'warnings' => COLLECTOR.messages.dup }
    end
  ANSWERS.puts(JSON.generate(answer, allow_nan: true, max_nesting: false))
end
