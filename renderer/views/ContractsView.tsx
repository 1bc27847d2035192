import { Stack, Tabs, Title } from '@mantine/core';
import { useState } from 'react';
import { ScryptTab } from './contracts/ScryptTab.js';
import { SolidityTab } from './contracts/SolidityTab.js';

const SAMPLE = `contract P2PKH {
  Ripemd160 pubKeyHash;

  public function unlock(Sig sig, PubKey pubKey) {
    require(hash160(pubKey) == this.pubKeyHash);
    require(checkSig(sig, pubKey));
  }
}
`;

/** The offline contract tools: the sCrypt compiler, and the Solidity transpiler whose output it compiles. */
export function ContractsView() {
  const [tab, setTab] = useState<string | null>('scrypt');
  const [file, setFile] = useState('P2PKH.scrypt');
  const [source, setSource] = useState(SAMPLE);

  return (
    <Stack>
      <Title order={2}>Contracts</Title>
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="scrypt">sCrypt</Tabs.Tab>
          <Tabs.Tab value="solidity">Solidity</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="scrypt" pt="md">
          <ScryptTab file={file} setFile={setFile} source={source} setSource={setSource} />
        </Tabs.Panel>
        <Tabs.Panel value="solidity" pt="md">
          <SolidityTab
            openInScrypt={(f, s) => {
              setFile(f);
              setSource(s);
              setTab('scrypt');
            }}
          />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
