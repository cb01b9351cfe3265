# Linted as one project with train.py and full_graph.py: the layer writes its features into the
# graph it is handed, outside `local_scope()`. Only a graph that outlives the step would keep them,
# and nothing in this file says which graphs its callers hand it: by default no finding
# (`--preview` shows the guess).
import dgl
import dgl.function as fn
import torch.nn as nn


class GraphConv(nn.Module):
    def __init__(self, in_feats, out_feats):
        super().__init__()
        self.linear = nn.Linear(in_feats, out_feats)

    def forward(self, g, feat):
        g.ndata["h"] = self.linear(feat)  # preview: ML001
        g.update_all(fn.copy_u("h", "m"), fn.sum("m", "h"))
        return dgl.mean_nodes(g, "h")
