require('@backstage/cli/config/nodeTransform.cjs');
const fs=require('fs'),path=require('path'),os=require('os');
const root='/work/main';
const { loadCatalog } = require(root+'/plugins/model-manager-node/src/loader/loadCatalog');
const c = require(root+'/plugins/model-manager-common/src');
(async()=>{
  const dir=fs.mkdtempSync(path.join(os.tmpdir(),'micro-'));
  fs.cpSync(root+'/runtimes',dir+'/runtimes',{recursive:true});
  const repo=fs.readFileSync(root+'/models.yaml','utf8');
  const n=1000; const models=Array.from({length:n},(_,i)=>`model-${i}`);
  fs.writeFileSync(dir+'/models.yaml',`models:\n${models.map(m=>`  ${m}:\n    model_id: org/${m}\n    category: llm\n    server:\n      runtime: vllm\n`).join('')}\n${repo.slice(repo.indexOf('\nruntimes:')+1)}`);
  const cat=await loadCatalog({modelsFile:dir+'/models.yaml',runtimesDir:dir+'/runtimes'});
  for (let round=0;round<3;round++){
  let t=process.hrtime.bigint();
  for(const m of models) c.resolveServer(cat,m,{serverVersion:'0.19.1'},{locate:false});
  const r=Number(process.hrtime.bigint()-t)/1e6;
  t=process.hrtime.bigint();
  let objs;
  for(const m of models){const s=c.resolveServer(cat,m,{serverVersion:'0.19.1'},{locate:false}); objs=c.renderManifests(cat,s,{namespace:'models'});}
  const rr=Number(process.hrtime.bigint()-t)/1e6;
  t=process.hrtime.bigint();
  for(const m of models){JSON.stringify(objs)}
  const js=Number(process.hrtime.bigint()-t)/1e6;
  console.log(`resolve ${ (r/n).toFixed(3)} ms/model; resolve+render ${(rr/n).toFixed(3)} ms/model; stringify ${(js/n).toFixed(3)}`);
  }
})();
