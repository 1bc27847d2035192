import { OP } from './script.js';

/**
 * The standard library, written in sCrypt and compiled with the user's program. The official library
 * source is not public; this is our own implementation of its documented behaviour (the sCrypt language
 * reference and the TypeScript mirrors in scrypt-ts): `Utils`, `SigHash` (BIP143 preimage fields),
 * `Tx` (OP_PUSH_TX: the preimage is signed in script with a fixed, public key and nonce, then checked
 * with OP_CHECKSIG, which only succeeds for the real preimage of the spending transaction), and the
 * readers/writers of the stateful-contract data part. Only what a program uses costs script: library
 * functions are inlined at their call sites.
 */
export const STDLIB_FILE = '<stdlib>';

/**
 * Bitcoin's opcodes as named constants (OpCodeType), in opcode order with each alias after its canonical
 * name; the standard library builds scripts from them, and like every non-int constant a used one is pushed
 * once at the bottom of the script.
 */
function opcodeLibrary(): string {
  const named: [string, number][] = Object.entries(OP).filter(([name]) => name !== 'OP_LEFT' && name !== 'OP_RIGHT');
  named.push(['OP_FALSE', 0x00], ['OP_TRUE', 0x51], ['OP_PUBKEYHASH', 0xfd], ['OP_PUBKEY', 0xfe]);
  const alias = new Set(['OP_FALSE', 'OP_TRUE', 'OP_CHECKLOCKTIMEVERIFY', 'OP_CHECKSEQUENCEVERIFY']);
  named.sort((a, b) => a[1] - b[1] || Number(alias.has(a[0])) - Number(alias.has(b[0])));
  const lines = named.map(([name, code]) => `  static const OpCodeType ${name} = OpCodeType(b'${code.toString(16).padStart(2, '0')}');`);
  return `library OpCode {\n${lines.join('\n')}\n}`;
}


export const STDLIB_SOURCE = String.raw`
${opcodeLibrary()}

library Utils {
  static const int OutputValueLen = 8;
  static const int PubKeyHashLen = 20;

  static function toLEUnsigned(int n, int l) : bytes {
    bytes m = num2bin(n, l + 1);
    return m[0 : len(m) - 1];
  }

  static function fromLEUnsigned(bytes b) : int {
    return unpack(b + b'00');
  }

  // Each size class in turn; the payload after the prefix.
  static function readVarint(bytes b) : bytes {
    int l = 0;
    bytes ret = b'';
    bytes header = b[0 : 1];
    if (header == b'fd') {
      l = Utils.fromLEUnsigned(b[1 : 3]);
      ret = b[3 : 3 + l];
    } else if (header == b'fe') {
      l = Utils.fromLEUnsigned(b[1 : 5]);
      ret = b[5 : 5 + l];
    } else if (header == b'ff') {
      l = Utils.fromLEUnsigned(b[1 : 9]);
      ret = b[9 : 9 + l];
    } else {
      l = Utils.fromLEUnsigned(b[0 : 1]);
      ret = b[1 : 1 + l];
    }
    return ret;
  }

  static function writeVarint(bytes b) : bytes {
    int n = len(b);
    bytes header = b'';
    if (n < 0xfd) {
      header = Utils.toLEUnsigned(n, 1);
    } else if (n < 0x10000) {
      header = b'fd' + Utils.toLEUnsigned(n, 2);
    } else if (n < 0x100000000) {
      header = b'fe' + Utils.toLEUnsigned(n, 4);
    } else if (n < 0x10000000000000000) {
      header = b'ff' + Utils.toLEUnsigned(n, 8);
    }
    return header + b;
  }

  static function buildOutput(bytes outputScript, int outputSatoshis) : bytes {
    return num2bin(outputSatoshis, Constants.OutputValueLen) + Utils.writeVarint(outputScript);
  }

  // From the named opcode constants: OP_DUP OP_HASH160 <20 bytes> OP_EQUALVERIFY OP_CHECKSIG.
  static function buildPublicKeyHashScript(PubKeyHash pubKeyHash) : bytes {
    return OpCode.OP_DUP + OpCode.OP_HASH160 + pack(Constants.PubKeyHashLen) + pubKeyHash + OpCode.OP_EQUALVERIFY + OpCode.OP_CHECKSIG;
  }

  static function buildPublicKeyHashOutput(PubKeyHash pubKeyHash, int amount) : bytes {
    return Utils.buildOutput(Utils.buildPublicKeyHashScript(pubKeyHash), amount);
  }

  static function buildOpreturnScript(bytes data) : bytes {
    return OpCode.OP_FALSE + OpCode.OP_RETURN + Utils.writeVarint(data);
  }
}

// The BIP143 preimage's fields. The head fields are at fixed offsets; the tail ones are read relative to a
// local holding the preimage's length, raw first, converted by the int accessors.
library SigHash {
  // The base types; a signature's flag ORs in FORKID (and ANYONECANPAY): SigHash.ALL | SigHash.FORKID is 0x41.
  static const SigHashType ALL = SigHashType(b'01');
  static const SigHashType NONE = SigHashType(b'02');
  static const SigHashType SINGLE = SigHashType(b'03');
  static const SigHashType FORKID = SigHashType(b'40');
  static const SigHashType ANYONECANPAY = SigHashType(b'80');
  static const SigHashType ANYONECANPAY_ALL = SigHashType(b'81');
  static const SigHashType ANYONECANPAY_NONE = SigHashType(b'82');
  static const SigHashType ANYONECANPAY_SINGLE = SigHashType(b'83');

  static function nVersion(SigHashPreimage preimage) : bytes {
    return preimage[: 4];
  }

  static function hashPrevouts(SigHashPreimage preimage) : Sha256 {
    return Sha256(preimage[4 : 36]);
  }

  static function hashSequence(SigHashPreimage preimage) : Sha256 {
    return Sha256(preimage[36 : 68]);
  }

  static function outpoint(SigHashPreimage preimage) : bytes {
    return preimage[68 : 104];
  }

  static function scriptCode(SigHashPreimage preimage) : bytes {
    return Utils.readVarint(preimage[104 :]);
  }

  static function valueRaw(SigHashPreimage preimage) : bytes {
    int l = len(preimage);
    return preimage[l - 52 : l - 44];
  }

  static function value(SigHashPreimage preimage) : int {
    return Utils.fromLEUnsigned(SigHash.valueRaw(preimage));
  }

  static function nSequenceRaw(SigHashPreimage preimage) : bytes {
    int l = len(preimage);
    return preimage[l - 44 : l - 40];
  }

  static function nSequence(SigHashPreimage preimage) : int {
    return Utils.fromLEUnsigned(SigHash.nSequenceRaw(preimage));
  }

  static function hashOutputs(SigHashPreimage preimage) : Sha256 {
    int l = len(preimage);
    return Sha256(preimage[l - 40 : l - 8]);
  }

  static function nLocktimeRaw(SigHashPreimage preimage) : bytes {
    int l = len(preimage);
    return preimage[l - 8 : l - 4];
  }

  static function nLocktime(SigHashPreimage preimage) : int {
    return Utils.fromLEUnsigned(SigHash.nLocktimeRaw(preimage));
  }

  static function sigHashType(SigHashPreimage preimage) : SigHashType {
    int l = len(preimage);
    return SigHashType(preimage[l - 4 : l - 3]);
  }
}

// Reads the push-data encoded values of a stateful contract's data part, in order.
library VarIntReader {
  // The data part ends with the state's 4-byte length and a version byte.
  static const int StateLen = 4;
  static const int VersionLen = 1;
  static const int Version = 0;

  bytes buf;
  int pos;

  constructor(bytes buf) {
    this.buf = buf;
    this.pos = 0;
  }

  function eof() : bool {
    return this.pos >= len(this.buf);
  }

  function readBytes() : bytes {
    int l = 0;
    bytes buf = this.buf;
    bytes ret = b'';
    int header = unpack(buf[this.pos : this.pos + 1]);
    this.pos++;
    if (header < 0x4c) {
      l = header;
      ret = buf[this.pos : this.pos + l];
    } else if (header == 0x4c) {
      l = Utils.fromLEUnsigned(buf[this.pos : this.pos + 1]);
      this.pos += 1;
      ret = buf[this.pos : this.pos + l];
    } else if (header == 0x4d) {
      l = Utils.fromLEUnsigned(buf[this.pos : this.pos + 2]);
      this.pos += 2;
      ret = buf[this.pos : this.pos + l];
    } else if (header == 0x4e) {
      l = Utils.fromLEUnsigned(buf[this.pos : this.pos + 4]);
      this.pos += 4;
      ret = buf[this.pos : this.pos + l];
    } else {
      require(false);
    }
    this.pos += l;
    return ret;
  }

  function readBool() : bool {
    bytes buf = this.buf[this.pos : this.pos + 1];
    this.pos++;
    return b'00' != buf;
  }

  function readInt() : int {
    return unpack(this.readBytes());
  }

  // Where the state starts in a locking script: code OP_RETURN state, length, version.
  static function getStateStart(bytes scriptCode) : int {
    int scriptLen = len(scriptCode);
    bytes lb = scriptCode[scriptLen - VarIntReader.StateLen - VarIntReader.VersionLen : scriptLen - VarIntReader.VersionLen];
    int stateLen = unpack(lb);
    return scriptLen - stateLen - VarIntReader.StateLen - VarIntReader.VersionLen;
  }
}

// Push-data encoding, as the data part of a stateful contract stores its properties.
library VarIntWriter {
  static function writeBytes(bytes b) : bytes {
    int n = len(b);
    bytes header = b'';
    if (n < 0x4c) {
      header = Utils.toLEUnsigned(n, 1);
    } else if (n < 0x100) {
      header = b'4c' + Utils.toLEUnsigned(n, 1);
    } else if (n < 0x10000) {
      header = b'4d' + Utils.toLEUnsigned(n, 2);
    } else if (n < 0x100000000) {
      header = b'4e' + Utils.toLEUnsigned(n, 4);
    } else {
      require(false);
    }
    return header + b;
  }

  static function writeBool(bool x) : bytes {
    return x ? b'01' : b'00';
  }

  // Zero is written as one zero byte, as scryptlib serialises it.
  static function writeInt(int x) : bytes {
    return VarIntWriter.writeBytes(x == 0 ? b'00' : pack(x));
  }

  // The data part's tail: the state's length in 4 bytes, then the version byte.
  static function serializeState(bytes stateBuf) : bytes {
    bytes lenBuf = num2bin(len(stateBuf), VarIntReader.StateLen);
    return stateBuf + lenBuf + num2bin(VarIntReader.Version, VarIntReader.VersionLen);
  }
}

library Tx {
  static const PrivKey privKey = PrivKey(0x26f00fe2340a84335ebdf30f57e9bb58487117b29355718f5e46bf5168d7df97);
  static const PubKey pubKey = PubKey(b'02ba79df5f8ae7604a9830f03c7933028186aede0675a16f025dc4f8be8eec0382');
  static const int invK = 0xc8ffdbaa05d93aa4ede79ec58f06a72562048b775a3507c2bf44bde4f007c40a;
  static const int r = 0x1008ce7480da41702918d1ec8e6849ba32b4d65b1e40dc669c31a1e6306b266c;
  static const bytes rBigEndian = b'1008ce7480da41702918d1ec8e6849ba32b4d65b1e40dc669c31a1e6306b266c';
  // The order of secp256k1.
  static const int N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141;

  static function normalize(int k, int modulus) : int {
    int res = k % modulus;
    return (res < 0) ? res + modulus : res;
  }

  // ECDSA in script: s = k⁻¹(h + r·d) mod N, low S, strict DER (s's leading zeros cut), then the sighash flag.
  static function sign(int h, PrivKey privKey, int inverseK, int r, bytes rBigEndian, SigHashType sigHashType) : Sig {
    int s = inverseK * (h + r * privKey);
    int N = Tx.N;
    s = Tx.normalize(s, N);
    if (s > N / 2) {
      s = N - s;
    }
    int rlen = len(rBigEndian);
    int slen = len(pack(s));
    bytes sBigEndian = reverseBytes(num2bin(s, 32), 32)[32 - slen :];
    int l = 4 + rlen + slen;
    bytes rb = b'30' + pack(l) + b'02' + pack(rlen) + rBigEndian + b'02' + pack(slen) + sBigEndian + sigHashType;
    return Sig(rb);
  }

  static function fromBEUnsigned(bytes b) : int {
    return unpack(reverseBytes(b, 32) + b'00');
  }

  static function checkPreimageAdvanced(SigHashPreimage txPreimage, PrivKey privKey, PubKey pubKey, int inverseK, int r, bytes rBigEndian, SigHashType sigHashType) : bool {
    Sha256 hash = hash256(txPreimage);
    Sig sig = Tx.sign(Tx.fromBEUnsigned(hash), privKey, inverseK, r, rBigEndian, sigHashType);
    return checkSig(sig, pubKey);
  }

  static function checkPreimage(SigHashPreimage txPreimage) : bool {
    return Tx.checkPreimageAdvanced(txPreimage, Tx.privKey, Tx.pubKey, Tx.invK, Tx.r, Tx.rBigEndian, SigHash.ALL | SigHash.FORKID);
  }

  static function checkPreimageSigHashType(SigHashPreimage txPreimage, SigHashType sigHashType) : bool {
    return Tx.checkPreimageAdvanced(txPreimage, Tx.privKey, Tx.pubKey, Tx.invK, Tx.r, Tx.rBigEndian, sigHashType);
  }

  // The "optimal" variants are an official speed-up with extra conditions on the preimage; the general
  // algorithm above is correct for every preimage, so they share it.
  static function checkPreimageOpt(SigHashPreimage txPreimage) : bool {
    return Tx.checkPreimage(txPreimage);
  }

  static function checkPreimageOpt_(SigHashPreimage txPreimage) : bool {
    return Tx.checkPreimageSigHashType(txPreimage, SigHash.sigHashType(txPreimage));
  }

  // OCS: an OP_CODESEPARATOR right before the signature check, so the signed scriptCode is the rest of
  // the script after it.
  static function checkPreimageAdvancedOCS(SigHashPreimage txPreimage, PrivKey privKey, PubKey pubKey, int inverseK, int r, bytes rBigEndian, SigHashType sigHashType) : bool {
    Sha256 hash = hash256(txPreimage);
    Sig sig = Tx.sign(Tx.fromBEUnsigned(hash), privKey, inverseK, r, rBigEndian, sigHashType);
    ***
    return checkSig(sig, pubKey);
  }

  static function checkPreimageOCS(SigHashPreimage txPreimage) : bool {
    return Tx.checkPreimageAdvancedOCS(txPreimage, Tx.privKey, Tx.pubKey, Tx.invK, Tx.r, Tx.rBigEndian, SigHash.ALL | SigHash.FORKID);
  }

  static function checkPreimageSigHashTypeOCS(SigHashPreimage txPreimage, SigHashType sigHashType) : bool {
    return Tx.checkPreimageAdvancedOCS(txPreimage, Tx.privKey, Tx.pubKey, Tx.invK, Tx.r, Tx.rBigEndian, sigHashType);
  }

  static function checkPreimageOptOCS(SigHashPreimage txPreimage) : bool {
    return Tx.checkPreimageOCS(txPreimage);
  }

  static function checkPreimageOptOCS_(SigHashPreimage txPreimage) : bool {
    return Tx.checkPreimageSigHashTypeOCS(txPreimage, SigHash.sigHashType(txPreimage));
  }

  // Whether the output being spent is the contract's first (its state data part still says "genesis").
  static function isFirstCall(SigHashPreimage txPreimage) : bool {
    bytes scriptCode = SigHash.scriptCode(txPreimage);
    int stateStart = VarIntReader.getStateStart(scriptCode);
    VarIntReader reader = new VarIntReader(scriptCode[stateStart :]);
    return reader.readBool();
  }
}

// Sizes of transaction fields, in bytes.
library Constants {
  static const int InputSeqLen = 4;
  static const int OutputValueLen = 8;
  static const int PubKeyLen = 33;
  static const int PubKeyHashLen = 20;
  static const int TxIdLen = 32;
  static const int OutpointLen = 36;
}

// A key of a HashedMap or HashedSet with its index in the sorted storage (computed off-chain, as scryptlib's
// getSortedItem does).
struct SortedItem<T> {
  T item;
  int idx;
}

// A map kept as sorted (hash(key), hash(value)) pairs of 32 bytes each, the layout scryptlib's HashedMap
// serialises: hash = flattenSha256 (sha256 of a scalar; of each leaf, joined and hashed again, for structs and
// arrays), keys ascending as script numbers. Every access names the key's index; the code is the official
// library's, function by function, so contracts compile to the official bytes. Its has() is true only when
// the key sits at the index given: false does not prove the key absent (a wrong index hides a present key).
// isAbsent is our addition that does prove it, for code that treats an absent key as a default value.
library HashedMap<K, V> {
  bytes _data;

  static function lessThan(bytes a, bytes b) : bool {
    return unpack(a) < unpack(b);
  }

  function size() : int {
    return len(this._data) / 64;
  }

  function set(SortedItem<K> keyWithIdx, V val) : bool {
    bool result = false;
    int size = this.size();
    bytes keyHash = flattenSha256(keyWithIdx.item);
    bytes entry = keyHash + flattenSha256(val);
    if (keyWithIdx.idx >= 0 && keyWithIdx.idx <= size) {
      bool isFirst = keyWithIdx.idx == 0;
      bool isLast = keyWithIdx.idx >= size - 1;
      bytes before = isFirst ? b'' : this._data[: keyWithIdx.idx * 64];
      bytes at = keyWithIdx.idx == size ? b'' : this._data[keyWithIdx.idx * 64 : keyWithIdx.idx * 64 + 64];
      bytes atKey = at == b'' ? b'' : at[: 32];
      bytes after = isLast ? b'' : this._data[(keyWithIdx.idx + 1) * 64 :];
      if ((isFirst || HashedMap.lessThan(before[(keyWithIdx.idx - 1) * 64 : (keyWithIdx.idx - 1) * 64 + 32], keyHash)) && (isLast || HashedMap.lessThan(keyHash, after[: 32]))) {
        if (atKey == keyHash) {
          this._data = before + entry + after;
          result = true;
        } else if (atKey == b'' || HashedMap.lessThan(keyHash, atKey)) {
          this._data = before + entry + at + after;
          result = true;
        }
      }
    }
    return result;
  }

  function canGet(SortedItem<K> keyWithIdx, V val) : bool {
    bool result = false;
    if (keyWithIdx.idx >= 0 && keyWithIdx.idx < this.size()) {
      int start = keyWithIdx.idx * 64;
      bytes k = this._data[start : start + 32];
      bytes v = this._data[start + 32 : start + 64];
      result = flattenSha256(keyWithIdx.item) == k && flattenSha256(val) == v;
    }
    return result;
  }

  function has(SortedItem<K> keyWithIdx) : bool {
    bool result = false;
    if (keyWithIdx.idx >= 0 && keyWithIdx.idx < this.size()) {
      int start = keyWithIdx.idx * 64;
      bytes k = this._data[start : start + 32];
      result = flattenSha256(keyWithIdx.item) == k;
    }
    return result;
  }

  function delete(SortedItem<K> keyWithIdx) : bool {
    bool result = false;
    if (keyWithIdx.idx >= 0 && keyWithIdx.idx < this.size()) {
      int start = keyWithIdx.idx * 64;
      bytes k = this._data[start : start + 32];
      if (flattenSha256(keyWithIdx.item) == k) {
        bytes before = this._data[: keyWithIdx.idx * 64];
        bytes after = this._data[(keyWithIdx.idx + 1) * 64 :];
        this._data = before + after;
        result = true;
      }
    }
    return result;
  }

  // True only when the key is not in the map and the index is where it would go (its neighbours sort
  // around it): a present key cannot be passed off as absent.
  function isAbsent(SortedItem<K> keyWithIdx) : bool {
    int i = keyWithIdx.idx;
    int n = this.size();
    bytes k = flattenSha256(keyWithIdx.item);
    return i >= 0 && i <= n && (i == n || this._data[i * 64 : i * 64 + 32] != k)
      && (i == 0 || unpack(this._data[(i - 1) * 64 : (i - 1) * 64 + 32]) < unpack(k))
      && (i == n || unpack(k) < unpack(this._data[i * 64 : i * 64 + 32]));
  }

  function clear() : bool {
    this._data = b'';
    return true;
  }

  function data() : bytes {
    return this._data;
  }

  // The older forms, with the key's index as its own argument.
  function has(K key, int keyIndex) : bool {
    return this.has({ key, keyIndex });
  }

  function canGet(K key, V val, int keyIndex) : bool {
    return this.canGet({ key, keyIndex }, val);
  }

  function set(K key, V val, int keyIndex) : bool {
    return this.set({ key, keyIndex }, val);
  }

  function delete(K key, int keyIndex) : bool {
    return this.delete({ key, keyIndex });
  }
}

// A set kept as sorted 32-byte element hashes (scryptlib's HashedSet layout), in the official library's code;
// add() is true when the element is there afterwards (also when it already was). isAbsent as for HashedMap.
library HashedSet<E> {
  bytes _data;

  static function lessThan(bytes a, bytes b) : bool {
    return unpack(a) < unpack(b);
  }

  function size() : int {
    return len(this._data) / 32;
  }

  function add(SortedItem<E> itemWithIdx) : bool {
    bool result = false;
    int size = this.size();
    bytes h = flattenSha256(itemWithIdx.item);
    if (itemWithIdx.idx >= 0 && itemWithIdx.idx <= size) {
      bool isFirst = itemWithIdx.idx == 0;
      bool isLast = itemWithIdx.idx >= size - 1;
      bytes before = isFirst ? b'' : this._data[: itemWithIdx.idx * 32];
      bytes at = itemWithIdx.idx == size ? b'' : this._data[itemWithIdx.idx * 32 : itemWithIdx.idx * 32 + 32];
      bytes after = isLast ? b'' : this._data[(itemWithIdx.idx + 1) * 32 :];
      if ((isFirst || HashedSet.lessThan(before[(itemWithIdx.idx - 1) * 32 : (itemWithIdx.idx - 1) * 32 + 32], h)) && (isLast || HashedSet.lessThan(h, after[: 32]))) {
        if (at == h) {
          result = true;
        } else if (at == b'' || HashedSet.lessThan(h, at)) {
          this._data = before + h + at + after;
          result = true;
        }
      }
    }
    return result;
  }

  function has(SortedItem<E> itemWithIdx) : bool {
    bool result = false;
    if (itemWithIdx.idx >= 0 && itemWithIdx.idx < this.size()) {
      int start = itemWithIdx.idx * 32;
      bytes at = this._data[start : start + 32];
      result = flattenSha256(itemWithIdx.item) == at;
    }
    return result;
  }

  function delete(SortedItem<E> itemWithIdx) : bool {
    bool result = false;
    if (itemWithIdx.idx >= 0 && itemWithIdx.idx < this.size()) {
      int start = itemWithIdx.idx * 32;
      bytes at = this._data[start : start + 32];
      if (flattenSha256(itemWithIdx.item) == at) {
        bytes before = this._data[: itemWithIdx.idx * 32];
        bytes after = this._data[(itemWithIdx.idx + 1) * 32 :];
        this._data = before + after;
        result = true;
      }
    }
    return result;
  }

  function isAbsent(SortedItem<E> itemWithIdx) : bool {
    int i = itemWithIdx.idx;
    int n = this.size();
    bytes h = flattenSha256(itemWithIdx.item);
    return i >= 0 && i <= n && (i == n || this._data[i * 32 : i * 32 + 32] != h)
      && (i == 0 || unpack(this._data[(i - 1) * 32 : i * 32]) < unpack(h))
      && (i == n || unpack(h) < unpack(this._data[i * 32 : i * 32 + 32]));
  }

  function clear() : bool {
    this._data = b'';
    return true;
  }

  function data() : bytes {
    return this._data;
  }
}

`;

/** Names the standard library declares; a user declaration of the same name replaces it. */
export const STDLIB_NAMES = ['OpCode', 'Utils', 'SigHash', 'VarIntReader', 'VarIntWriter', 'Tx', 'Constants', 'SortedItem', 'HashedMap', 'HashedSet'];
