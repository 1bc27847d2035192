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

export const STDLIB_SOURCE = String.raw`
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

  static function readVarint(bytes b) : bytes {
    bytes header = b[0 : 1];
    bytes ret = b'';
    if (header == b'fd') {
      ret = b[3 : 3 + Utils.fromLEUnsigned(b[1 : 3])];
    } else if (header == b'fe') {
      ret = b[5 : 5 + Utils.fromLEUnsigned(b[1 : 5])];
    } else if (header == b'ff') {
      ret = b[9 : 9 + Utils.fromLEUnsigned(b[1 : 9])];
    } else {
      ret = b[1 : 1 + Utils.fromLEUnsigned(header)];
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
    } else {
      header = b'ff' + Utils.toLEUnsigned(n, 8);
    }
    return header + b;
  }

  static function buildOutput(bytes outputScript, int outputSatoshis) : bytes {
    return num2bin(outputSatoshis, 8) + Utils.writeVarint(outputScript);
  }

  static function buildPublicKeyHashScript(Ripemd160 pubKeyHash) : bytes {
    return b'76a914' + pubKeyHash + b'88ac';
  }

  static function buildPublicKeyHashOutput(Ripemd160 pubKeyHash, int amount) : bytes {
    return Utils.buildOutput(Utils.buildPublicKeyHashScript(pubKeyHash), amount);
  }

  static function buildOpreturnScript(bytes data) : bytes {
    return b'006a' + Utils.writeVarint(data);
  }
}

library SigHash {
  static const SigHashType ALL = SigHashType(b'41');
  static const SigHashType NONE = SigHashType(b'42');
  static const SigHashType SINGLE = SigHashType(b'43');
  static const SigHashType ANYONECANPAY = SigHashType(b'80');
  static const SigHashType FORKID = SigHashType(b'40');
  static const SigHashType ANYONECANPAY_ALL = SigHashType(b'c1');
  static const SigHashType ANYONECANPAY_NONE = SigHashType(b'c2');
  static const SigHashType ANYONECANPAY_SINGLE = SigHashType(b'c3');

  static function nVersion(SigHashPreimage p) : bytes { return p[0 : 4]; }
  static function hashPrevouts(SigHashPreimage p) : Sha256 { return Sha256(p[4 : 36]); }
  static function hashSequence(SigHashPreimage p) : Sha256 { return Sha256(p[36 : 68]); }
  static function outpoint(SigHashPreimage p) : bytes { return p[68 : 104]; }
  static function scriptCode(SigHashPreimage p) : bytes { return Utils.readVarint(p[104 : len(p) - 52]); }
  static function valueRaw(SigHashPreimage p) : bytes { return p[len(p) - 52 : len(p) - 44]; }
  static function value(SigHashPreimage p) : int { return Utils.fromLEUnsigned(p[len(p) - 52 : len(p) - 44]); }
  static function nSequenceRaw(SigHashPreimage p) : bytes { return p[len(p) - 44 : len(p) - 40]; }
  static function nSequence(SigHashPreimage p) : int { return Utils.fromLEUnsigned(p[len(p) - 44 : len(p) - 40]); }
  static function hashOutputs(SigHashPreimage p) : Sha256 { return Sha256(p[len(p) - 40 : len(p) - 8]); }
  static function nLocktimeRaw(SigHashPreimage p) : bytes { return p[len(p) - 8 : len(p) - 4]; }
  static function nLocktime(SigHashPreimage p) : int { return Utils.fromLEUnsigned(p[len(p) - 8 : len(p) - 4]); }
  static function sigHashType(SigHashPreimage p) : SigHashType { return SigHashType(p[len(p) - 4 : len(p) - 3]); }
}

library Tx {
  static const PrivKey privKey = PrivKey(0x26f00fe2340a84335ebdf30f57e9bb58487117b29355718f5e46bf5168d7df97);
  static const PubKey pubKey = PubKey(b'02ba79df5f8ae7604a9830f03c7933028186aede0675a16f025dc4f8be8eec0382');
  static const int invK = 0xc8ffdbaa05d93aa4ede79ec58f06a72562048b775a3507c2bf44bde4f007c40a;
  static const int r = 0x1008ce7480da41702918d1ec8e6849ba32b4d65b1e40dc669c31a1e6306b266c;
  static const bytes rBigEndian = b'1008ce7480da41702918d1ec8e6849ba32b4d65b1e40dc669c31a1e6306b266c';
  static const int N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141;

  static function normalize(int k, int modulus) : int {
    int res = k % modulus;
    return res < 0 ? res + modulus : res;
  }

  static function fromBEUnsigned(bytes b) : int {
    return unpack(reverseBytes(b, 32) + b'00');
  }

  // ECDSA in script: s = k⁻¹(h + r·d) mod N, low S, strict DER, then the sighash flag.
  static function sign(int h, PrivKey privKey, int inverseK, int r, bytes rBigEndian, SigHashType sigHashType) : Sig {
    int s = Tx.normalize(inverseK * (h + r * privKey), Tx.N);
    if (s > Tx.N / 2) {
      s = Tx.N - s;
    }
    int rlen = len(rBigEndian);
    int slen = len(pack(s));
    bytes sBigEndian = reverseBytes(num2bin(s, 32), 32)[32 - slen :];
    return Sig(b'30' + pack(4 + rlen + slen) + b'02' + pack(rlen) + rBigEndian + b'02' + pack(slen) + sBigEndian + sigHashType);
  }

  static function checkPreimageAdvanced(SigHashPreimage txPreimage, PrivKey privKey, PubKey pubKey, int inverseK, int r, bytes rBigEndian, SigHashType sigHashType) : bool {
    Sig sig = Tx.sign(Tx.fromBEUnsigned(hash256(txPreimage)), privKey, inverseK, r, rBigEndian, sigHashType);
    return checkSig(sig, pubKey);
  }

  static function checkPreimage(SigHashPreimage txPreimage) : bool {
    return Tx.checkPreimageAdvanced(txPreimage, Tx.privKey, Tx.pubKey, Tx.invK, Tx.r, Tx.rBigEndian, SigHash.ALL);
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
    return Tx.checkPreimageSigHashType(txPreimage, SigHashType(txPreimage[len(txPreimage) - 4 : len(txPreimage) - 3]));
  }

  // OCS: an OP_CODESEPARATOR right before the signature check, so the signed scriptCode is the rest of
  // the script after it.
  static function checkPreimageAdvancedOCS(SigHashPreimage txPreimage, PrivKey privKey, PubKey pubKey, int inverseK, int r, bytes rBigEndian, SigHashType sigHashType) : bool {
    Sig sig = Tx.sign(Tx.fromBEUnsigned(hash256(txPreimage)), privKey, inverseK, r, rBigEndian, sigHashType);
    ***
    return checkSig(sig, pubKey);
  }

  static function checkPreimageOCS(SigHashPreimage txPreimage) : bool {
    return Tx.checkPreimageAdvancedOCS(txPreimage, Tx.privKey, Tx.pubKey, Tx.invK, Tx.r, Tx.rBigEndian, SigHash.ALL);
  }

  static function checkPreimageSigHashTypeOCS(SigHashPreimage txPreimage, SigHashType sigHashType) : bool {
    return Tx.checkPreimageAdvancedOCS(txPreimage, Tx.privKey, Tx.pubKey, Tx.invK, Tx.r, Tx.rBigEndian, sigHashType);
  }

  static function checkPreimageOptOCS(SigHashPreimage txPreimage) : bool {
    return Tx.checkPreimageOCS(txPreimage);
  }

  // Whether the output being spent is the contract's first (its state data part still says "genesis").
  static function isFirstCall(SigHashPreimage txPreimage) : bool {
    bytes sc = SigHash.scriptCode(txPreimage);
    int sl = len(sc);
    int ds = sl - 5 - Utils.fromLEUnsigned(sc[sl - 5 : sl - 1]);
    return sc[ds : ds + 1] == b'01';
  }
}

// A key of a HashedMap or HashedSet with its index in the sorted storage (computed off-chain, as scryptlib's
// getSortedItem does).
struct SortedItem<T> {
  T item;
  int idx;
}

// A map kept as sorted (hash(key), hash(value)) pairs of 32 bytes each, the layout scryptlib's HashedMap
// serialises: hash = flattenSha256 (sha256 of each leaf, joined and hashed again for structs and arrays),
// keys ascending as script numbers. Every access names the key's index; the script checks it.
library HashedMap<K, V> {
  bytes _data;

  function size() : int {
    return len(this._data) / 64;
  }

  // True when the key is at its index. False only when the index is where the key would go (its
  // neighbours sort around it): a present key cannot be hidden behind a wrong index.
  function has(SortedItem<K> keyWithIdx) : bool {
    int i = keyWithIdx.idx;
    int n = this.size();
    bytes k = flattenSha256(keyWithIdx.item);
    require(i >= 0 && i <= n);
    bool found = false;
    if (i < n) {
      found = this._data[i * 64 : i * 64 + 32] == k;
    }
    if (!found) {
      require(i == 0 || unpack(this._data[(i - 1) * 64 : (i - 1) * 64 + 32]) < unpack(k));
      require(i == n || unpack(k) < unpack(this._data[i * 64 : i * 64 + 32]));
    }
    return found;
  }

  function canGet(SortedItem<K> keyWithIdx, V val) : bool {
    int i = keyWithIdx.idx;
    return this.has(keyWithIdx) && this._data[i * 64 + 32 : i * 64 + 64] == flattenSha256(val);
  }

  function set(SortedItem<K> keyWithIdx, V val) : bool {
    int i = keyWithIdx.idx;
    int rest = i * 64;
    if (this.has(keyWithIdx)) {
      rest = rest + 64;
    }
    this._data = this._data[0 : i * 64] + flattenSha256(keyWithIdx.item) + flattenSha256(val) + this._data[rest :];
    return true;
  }

  function delete(SortedItem<K> keyWithIdx) : bool {
    bool found = this.has(keyWithIdx);
    if (found) {
      int i = keyWithIdx.idx;
      this._data = this._data[0 : i * 64] + this._data[(i + 1) * 64 :];
    }
    return found;
  }

  function clear() : bool {
    this._data = b'';
    return true;
  }

  function data() : bytes {
    return this._data;
  }
}

// A set kept as sorted 32-byte element hashes (scryptlib's HashedSet layout).
library HashedSet<E> {
  bytes _data;

  function size() : int {
    return len(this._data) / 32;
  }

  // As HashedMap.has: false only at the index where the element would go.
  function has(SortedItem<E> itemWithIdx) : bool {
    int i = itemWithIdx.idx;
    int n = this.size();
    bytes h = flattenSha256(itemWithIdx.item);
    require(i >= 0 && i <= n);
    bool found = false;
    if (i < n) {
      found = this._data[i * 32 : i * 32 + 32] == h;
    }
    if (!found) {
      require(i == 0 || unpack(this._data[(i - 1) * 32 : i * 32]) < unpack(h));
      require(i == n || unpack(h) < unpack(this._data[i * 32 : i * 32 + 32]));
    }
    return found;
  }

  function add(SortedItem<E> itemWithIdx) : bool {
    bool added = !this.has(itemWithIdx);
    if (added) {
      int i = itemWithIdx.idx;
      this._data = this._data[0 : i * 32] + flattenSha256(itemWithIdx.item) + this._data[i * 32 :];
    }
    return added;
  }

  function delete(SortedItem<E> itemWithIdx) : bool {
    bool found = this.has(itemWithIdx);
    if (found) {
      int i = itemWithIdx.idx;
      this._data = this._data[0 : i * 32] + this._data[(i + 1) * 32 :];
    }
    return found;
  }

  function clear() : bool {
    this._data = b'';
    return true;
  }

  function data() : bytes {
    return this._data;
  }
}

// Push-data encoding, as the data part of a stateful contract stores its properties.
library VarIntWriter {
  static function writeBytes(bytes b) : bytes {
    int n = len(b);
    bytes header = b'';
    if (n == 0) {
      header = b'00';
    } else if (n < 0x4c) {
      header = Utils.toLEUnsigned(n, 1);
    } else if (n < 0x100) {
      header = b'4c' + Utils.toLEUnsigned(n, 1);
    } else if (n < 0x10000) {
      header = b'4d' + Utils.toLEUnsigned(n, 2);
    } else {
      header = b'4e' + Utils.toLEUnsigned(n, 4);
    }
    return header + b;
  }

  static function writeBool(bool x) : bytes {
    return x ? b'01' : b'00';
  }

  static function writeInt(int x) : bytes {
    return x == 0 ? b'0100' : VarIntWriter.writeBytes(pack(x));
  }
}

library VarIntReader {
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
    int header = Utils.fromLEUnsigned(this.buf[this.pos : this.pos + 1]);
    this.pos = this.pos + 1;
    int l = header;
    if (header == 0x4c) {
      l = Utils.fromLEUnsigned(this.buf[this.pos : this.pos + 1]);
      this.pos = this.pos + 1;
    } else if (header == 0x4d) {
      l = Utils.fromLEUnsigned(this.buf[this.pos : this.pos + 2]);
      this.pos = this.pos + 2;
    } else if (header == 0x4e) {
      l = Utils.fromLEUnsigned(this.buf[this.pos : this.pos + 4]);
      this.pos = this.pos + 4;
    }
    bytes ret = this.buf[this.pos : this.pos + l];
    this.pos = this.pos + l;
    return ret;
  }

  function readBool() : bool {
    bytes b = this.buf[this.pos : this.pos + 1];
    this.pos = this.pos + 1;
    return b != b'00';
  }

  function readInt() : int {
    return unpack(this.readBytes());
  }
}
`;

/** Names the standard library declares; a user declaration of the same name replaces it. */
export const STDLIB_NAMES = ['Utils', 'SigHash', 'Tx', 'VarIntWriter', 'VarIntReader', 'SortedItem', 'HashedMap', 'HashedSet'];
