var searchData=
[
  ['rte_5fpmu_0',['rte_pmu',['../md_README.html',1,'']]]
];
